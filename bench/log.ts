/** A line of a benchmark's report, on stdout (figures printed, never asserted). */
export const log = (line: string) => process.stdout.write(`${line}\n`);
