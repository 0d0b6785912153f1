// PLACEHOLDER (in-process only) until the jobs module lands; replace this whole file.
export interface Jobs {
  every(name: string, intervalMinutes: number, handler: () => Promise<void>): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}
export function createLocalJobs(_opts: { log?: (line: string) => void }): Jobs {
  return { async every() {}, async start() {}, async stop() {} };
}
export function createPgBossJobs(opts: { connectionString: string; schema: string; log?: (line: string) => void }): Jobs {
  return createLocalJobs(opts);
}
