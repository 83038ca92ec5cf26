// What other features and the app shell may use of auth: the session and where each role starts.
export { homeOf, sessionKey, sessionQuery, useSignOut } from './api/session';
export { ReauthDialog } from './components/reauth-dialog';
export { LoginPage } from './routes/login-page';
export { NotAllowedPage } from './routes/not-allowed-page';
