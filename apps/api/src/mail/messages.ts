import type { Invitation } from '@newsroom/domain';
import type { MailMessage } from './mailer';

const roleNames: Record<Invitation['role'], string> = {
  admin: 'an administrator',
  editor: 'an editor',
  contributor: 'a contributor',
  reviewer: 'a reviewer',
};

export function invitationMessage(dashboardUrl: string, token: string, invitation: Invitation): MailMessage {
  const link = `${dashboardUrl}/invitation/${token}`;
  return {
    to: invitation.email,
    subject: 'You are invited to the newsroom dashboard',
    link,
    text: `You are invited to the newsroom dashboard as ${roleNames[invitation.role]}.\n\nChoose your password here (the link works once, until ${invitation.expiresAt.toISOString()}):\n${link}\n\nIf you did not expect this, ignore this message.\n`,
  };
}

export function passwordResetMessage(dashboardUrl: string, token: string, email: string): MailMessage {
  const link = `${dashboardUrl}/reset-password/${token}`;
  return {
    to: email,
    subject: 'Reset your newsroom dashboard password',
    link,
    text: `Someone asked to reset the password of ${email} on the newsroom dashboard.\n\nChoose a new password here (the link works once, for one hour):\n${link}\n\nIf it was not you, ignore this message: your password stays as it is.\n`,
  };
}
