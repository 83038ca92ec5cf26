// The public recovery views: forgot password, reset by link, accept an invitation.
export { ForgotPasswordPage } from './routes/forgot-password-page';
export { InvitationPage } from './routes/invitation-page';
export { ResetPasswordPage } from './routes/reset-password-page';
