// team-roles (issue 31): staff roles, site grants, the policy table and its evaluator, the team, invitations and
// password resets. Re-exported by index.ts in one line, so parallel branches do not collide in the index.
export type { SiteRole } from './db/tables';
export {
  type Actor as PolicyActor,
  type ArticleScope,
  grantedSiteIds,
  isAllowed,
  isArticleVisible,
  mayCall,
  namedArticlesSourceOf,
  type PolicyTarget,
  policyOperationIds,
  policyRowsOf,
  rolesOf,
  rowsFor,
  targetKindOf,
} from './policy/policy';
export {
  findArticleScope,
  findExistingSiteIds,
  findGrantsOfUser,
  findScheduledArticleIds,
  siteExists,
} from './policy/policy.repository';
export { type PolicyCaller, type PolicyRow, type PolicyScope, policyTable } from './policy/policy-table';
export type { Invitation } from './users/invitation.repository';
export {
  acceptInvitation,
  completePasswordReset,
  inviteStaff,
  listPendingInvitations,
  previewInvitation,
  revokeInvitation,
  startPasswordReset,
} from './users/invitation.service';
export { recordSignIn, type TeamMember } from './users/team.repository';
export {
  assertValidAccess,
  changeUserAccess,
  deleteUser,
  getTeamMember,
  listTeam,
  reinstateUser,
  type StaffAccess,
  type StaffRole,
  siteRoles,
  staffRoles,
  suspendUser,
} from './users/team.service';
