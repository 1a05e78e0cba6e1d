// Runs node commands side by side, at most `slots` at once, in the order given (largest first
// ends the pool on short jobs). Each job's output is printed whole when it ends, under `[tag]`;
// a job that fails sets the exit code, and every job still runs. Used by lint.mjs and
// typecheck.mjs.
import { spawn } from 'node:child_process';

/**
 * @param {string} tag
 * @param {{ name: string, args: string[] }[]} jobs node arguments of each job
 * @param {number} slots
 * @returns {Promise<void>}
 */
export async function runJobPool(tag, jobs, slots) {
  /** @param {{ name: string, args: string[] }} job @returns {Promise<void>} */
  const run = (job) =>
    new Promise((resolve) => {
      const started = Date.now();
      const child = spawn(process.execPath, job.args, {
        stdio: ['ignore', 'pipe', 'pipe'],
        // The jobs write to a pipe: keep the colours a terminal would show.
        env: process.stdout.isTTY ? { ...process.env, FORCE_COLOR: '1' } : process.env,
      });
      /** @type {Buffer[]} */
      const out = [];
      child.stdout.on('data', (/** @type {Buffer} */ chunk) => out.push(chunk));
      child.stderr.on('data', (/** @type {Buffer} */ chunk) => out.push(chunk));
      child.on('close', (code, signal) => {
        const secs = Math.round((Date.now() - started) / 1000);
        process.stdout.write(`[${tag}] ${job.name}: exit ${code ?? signal} after ${secs}s\n`);
        process.stdout.write(Buffer.concat(out));
        if (code !== 0) process.exitCode = 1;
        resolve();
      });
    });
  const queue = [...jobs];
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) await run(job);
  };
  await Promise.all(Array.from({ length: Math.min(slots, jobs.length) }, worker));
}
