import { type Db, verifyAuditChain } from '@newsroom/domain';

/**
 * What `pnpm audit:verify` prints and exits with: 0 and the chain's extent and head hash (keep it elsewhere: it
 * anchors everything before it), or 1 naming the first row that was changed or removed.
 */
export async function auditVerifyReport(db: Db): Promise<{ exitCode: 0 | 1; line: string }> {
  const result = await verifyAuditChain(db);
  if (result.ok)
    return {
      exitCode: 0,
      line: `audit chain intact: ${result.checked} rows (seq ${result.startSeq} to ${result.headSeq}), head ${result.headHash}`,
    };
  return {
    exitCode: 1,
    line: `audit chain broken at row ${result.firstBadSeq} (${result.problem}): ${result.detail}; ${result.checked} rows before it verified`,
  };
}
