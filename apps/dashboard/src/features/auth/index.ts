// What the app shell and the router use of auth: its views and where each role starts.
export { ReauthDialog } from './components/reauth-dialog';
export { LoginPage } from './routes/login-page';
export { NotAllowedPage } from './routes/not-allowed-page';
export { homeOf, staffViewOperation } from './sign-in-destination';
