import { spawn } from 'node:child_process';
import { supervise } from '../../../../scripts/supervise';

// `pnpm start`'s supervision of two children that stop as server.ts and main.ts do: a graceful stop on the
// first SIGINT or SIGTERM (each handler runs once), which takes a moment. Each child prints "up <pid>" once its
// handlers are in place (followed by its label: the two start in any order) and "stopping <pid>" when its stop
// begins.
const child = `
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  console.log('stopping ' + process.pid);
  setTimeout(() => process.exit(0), 300);
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
setInterval(() => {}, 1000);
console.log('up ' + process.pid + ' ' + process.env.CHILD_LABEL);
`;
const children = ['first', 'second'].map((label) => ({
  label,
  process: spawn(process.execPath, ['-e', child], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, CHILD_LABEL: label },
  }),
}));
const code = await supervise(children, (line) => process.stdout.write(line));
// As scripts/start.ts closes the embedded upload store after the children: a moment in which a late signal can come.
console.log(`closing ${process.pid}`);
await new Promise((resolve) => setTimeout(resolve, 500));
process.exit(code);
