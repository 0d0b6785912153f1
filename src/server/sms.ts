import { mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

/**
 * Text messages (the direct-debit code, SPEC §5). An operator plugs in a real SMS gateway
 * behind this interface; by default each message is written to `<outbox>/sms/` as a text file
 * (first line `To: <number>`, a blank line, the text) and logged, like mails without SMTP.
 */
export interface SmsSender {
  send(to: string, text: string): Promise<void>;
}

export function outboxSms(opts: { outboxDir: string; log?: (line: string) => void }): SmsSender {
  const dir = join(opts.outboxDir, 'sms');
  return {
    async send(to, text) {
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(3).toString('hex')}.txt`);
      writeFileSync(file, `To: ${to}\n\n${text}\n`);
      opts.log?.(`sms to ${to.slice(0, -4).replace(/\d/g, '•')}${to.slice(-4)} written to ${file}`);
    },
  };
}
