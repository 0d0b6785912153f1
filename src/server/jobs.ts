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
  /**
   * Declares a queue of one-off jobs: `handler` runs each job sent to it, in one process, and a
   * job whose handler throws is run again after `retryDelaySeconds`, doubling each time, up to
   * `retries` more times. Register before `start()`.
   */
  queue<T extends object>(name: string, options: QueueOptions, handler: (data: T) => Promise<void>): void;
  /** Sends a job to a declared queue; false when this process runs no jobs (a sweep elsewhere picks the work up). */
  send(name: string, data: object): Promise<boolean>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface QueueOptions {
  retries: number;
  retryDelaySeconds: number;
}

interface Queue {
  name: string;
  options: QueueOptions;
  handler: (data: never) => Promise<void>;
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
  const queues = new Map<string, Queue>();
  let started = false;

  /** One try of a job; a failure is tried again later, doubling the delay, up to the queue's retries. */
  function attempt(queue: Queue, data: object, tries: number): void {
    const round = queue
      .handler(data as never)
      .catch((error: Error) => {
        log(`job ${queue.name} failed: ${error.message}`);
        if (tries >= queue.options.retries || !started) return;
        const timer = setTimeout(() => {
          timers.splice(timers.indexOf(timer), 1);
          attempt(queue, data, tries + 1);
        }, queue.options.retryDelaySeconds * 1000 * 2 ** tries);
        timer.unref();
        timers.push(timer);
      })
      .finally(() => running.delete(round));
    running.add(round);
  }

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
    queue(name, options, handler) {
      queues.set(name, { name, options, handler: handler as Queue['handler'] });
    },
    async send(name, data) {
      const queue = queues.get(name);
      if (!queue) throw new Error(`jobs: no queue ${name}`);
      if (!started) return false;
      attempt(queue, data, 0);
      return true;
    },
    async start() {
      started = true;
      for (const task of tasks) {
        const busy = { now: false };
        run(task, busy);
        const timer = setInterval(() => run(task, busy), task.intervalMinutes * 60_000);
        timer.unref();
        timers.push(timer);
      }
    },
    async stop() {
      started = false;
      for (const timer of timers.splice(0)) clearTimeout(timer);
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
  const queues: Queue[] = [];
  let boss: PgBoss | null = null;

  return {
    every(name, intervalMinutes, handler) {
      checkInterval(intervalMinutes);
      tasks.push({ name, intervalMinutes, handler });
    },
    queue(name, options, handler) {
      queues.push({ name, options, handler: handler as Queue['handler'] });
    },
    async send(name, data) {
      if (!boss) return false;
      return (await boss.send(name, data)) !== null;
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
      for (const queue of queues) {
        // pg-boss retries a failed job after retryDelay * 2^n seconds (with jitter), in whichever process fetches it.
        await boss.createQueue(queue.name, { retryLimit: queue.options.retries, retryDelay: queue.options.retryDelaySeconds, retryBackoff: true });
        await boss.work<object>(queue.name, { pollingIntervalSeconds: 0.5 }, async ([job]) => {
          if (job) await queue.handler(job.data as never);
        });
      }
    },
    async stop() {
      const running = boss;
      boss = null;
      await running?.stop({ graceful: true, timeout: 10_000 });
    },
  };
}
