import { PgBoss } from 'pg-boss';

/**
 * Background work (DESIGN §9): periodic tasks such as the account purge, later reminders and
 * batched mails. However many runtime processes run, a task runs in one of them at a time.
 */
export interface Jobs {
  /**
   * Runs `handler` soon after start and then every `intervalMinutes` (1 to 60), never twice at
   * once. Register before `start()`.
   */
  every(name: string, intervalMinutes: number, handler: () => Promise<void>): void;
  start(): Promise<void>;
  stop(): Promise<void>;
}

interface Task {
  name: string;
  intervalMinutes: number;
  handler: () => Promise<void>;
}

function checkInterval(minutes: number): void {
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > 60) throw new Error(`jobs: an interval of ${minutes} minutes is not 1 to 60`);
}

/** One process (SQLite): timers in this process; a round that is still running is not started again. */
export function createLocalJobs(opts: { log?: (line: string) => void }): Jobs {
  const log = opts.log ?? ((line) => console.error(line));
  const tasks: Task[] = [];
  const timers: NodeJS.Timeout[] = [];
  const running = new Set<Promise<void>>();

  function run(task: Task, busy: { now: boolean }): void {
    if (busy.now) return;
    busy.now = true;
    const round = task
      .handler()
      .catch((error: Error) => log(`job ${task.name} failed: ${error.message}`))
      .finally(() => {
        busy.now = false;
        running.delete(round);
      });
    running.add(round);
  }

  return {
    every(name, intervalMinutes, handler) {
      checkInterval(intervalMinutes);
      tasks.push({ name, intervalMinutes, handler });
    },
    async start() {
      for (const task of tasks) {
        const busy = { now: false };
        run(task, busy);
        const timer = setInterval(() => run(task, busy), task.intervalMinutes * 60_000);
        timer.unref();
        timers.push(timer);
      }
    },
    async stop() {
      for (const timer of timers.splice(0)) clearInterval(timer);
      await Promise.all(running);
    },
  };
}

export interface PgBossJobsOptions {
  connectionString: string;
  /** pg-boss's own schema, beside the runtime's. */
  schema: string;
  /** Names pg-boss's connections in pg_stat_activity. */
  applicationName: string;
  log?: (line: string) => void;
}

/** The cron expression of "every n minutes" (n from 1 to 60). */
export function cronEvery(minutes: number): string {
  checkInterval(minutes);
  return minutes === 60 ? '0 * * * *' : `*/${minutes} * * * *`;
}

/**
 * Many processes (PostgreSQL): pg-boss. Each task is an `exclusive` queue (one job queued or
 * active, across all processes), fed by a cron schedule that pg-boss keeps once for all processes,
 * and by one job at start that is throttled to one per interval, so that processes starting
 * together run it once. A job that fails, or whose process dies, is retried by another process.
 */
export function createPgBossJobs(opts: PgBossJobsOptions): Jobs {
  const log = opts.log ?? ((line) => console.error(line));
  const tasks: Task[] = [];
  let boss: PgBoss | null = null;

  return {
    every(name, intervalMinutes, handler) {
      checkInterval(intervalMinutes);
      tasks.push({ name, intervalMinutes, handler });
    },
    async start() {
      boss = new PgBoss({ connectionString: opts.connectionString, schema: opts.schema, application_name: opts.applicationName, max: 3 });
      // Unhandled, a lost connection's 'error' would end the process; pg-boss connects again itself.
      boss.on('error', (error: Error) => log(`jobs: ${error.message}`));
      await boss.start();
      for (const task of tasks) {
        const seconds = task.intervalMinutes * 60;
        await boss.createQueue(task.name, { policy: 'exclusive', retryLimit: 3, expireInSeconds: seconds });
        await boss.schedule(task.name, cronEvery(task.intervalMinutes));
        await boss.work(task.name, async () => {
          await task.handler();
        });
        await boss.sendThrottled(task.name, null, null, seconds, 'start');
      }
    },
    async stop() {
      const running = boss;
      boss = null;
      await running?.stop({ graceful: true, timeout: 10_000 });
    },
  };
}
