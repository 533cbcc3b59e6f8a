import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { ConfigType } from '@nestjs/config';
import nodemailer, { Transporter } from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import { appConfig } from '../config/app.config';

/** SMTP connection, greeting and socket timeouts, in ms: a stalled server fails the attempt, which is retried. */
const SMTP_TIMEOUT_MS = 15_000;

/**
 * Sends a message over SMTP_URL with nodemailer, or, when SMTP_URL is unset, writes it as an
 * `.eml` file under `{DATA_DIR}/outbox/` (the same MIME text an SMTP server would get), so that a
 * fresh install without a mail server still shows what it sends.
 */
@Injectable()
export class MailTransport implements OnApplicationShutdown {
  private readonly transporter: Transporter;
  private readonly toFiles: boolean;

  constructor(@Inject(appConfig.KEY) private readonly config: ConfigType<typeof appConfig>) {
    const smtpUrl = config.notifications.smtpUrl;
    this.toFiles = smtpUrl === null;
    this.transporter =
      smtpUrl === null
        ? nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' })
        : nodemailer.createTransport({
            url: smtpUrl,
            connectionTimeout: SMTP_TIMEOUT_MS,
            greetingTimeout: SMTP_TIMEOUT_MS,
            socketTimeout: SMTP_TIMEOUT_MS,
          } as never);
  }

  /** Where `.eml` files go when there is no SMTP server, or null when there is one. */
  get fileDirectory(): string | null {
    return this.toFiles ? join(this.config.dataDir, 'outbox') : null;
  }

  async send(message: Mail.Options, name: string): Promise<void> {
    const info = (await this.transporter.sendMail({ from: this.config.notifications.emailFrom, ...message })) as { message?: Buffer };
    const directory = this.fileDirectory;
    if (directory === null) return;
    mkdirSync(directory, { recursive: true });
    // Written aside and renamed, so that a reader never sees half a message.
    const file = join(directory, `${name}.eml`);
    writeFileSync(`${file}.part`, info.message ?? Buffer.alloc(0));
    renameSync(`${file}.part`, file);
  }

  onApplicationShutdown(): void {
    this.transporter.close();
  }
}
