import nodemailer, { type Transporter } from 'nodemailer';

export interface TMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Sends mail; the one implementation speaks SMTP, to the local catcher or a real relay. */
export interface TMailer {
  send(mail: TMail): Promise<void>;
  close(): void;
}

export class SmtpMailer implements TMailer {
  private readonly transport: Transporter;
  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(url);
  }
  async send(mail: TMail): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...mail });
  }
  close() {
    this.transport.close();
  }
}

/**
 * Outside demo mode with no SMTP_URL: mail cannot be delivered. Each send fails (the caller logs it
 * and answers "message not delivered"); the server warns at start.
 */
export class UndeliverableMailer implements TMailer {
  async send(mail: TMail): Promise<void> {
    throw new Error(`mail to ${mail.to.replace(/^(.).*@/, '$1…@')} not sent: SMTP_URL is not set`);
  }
  close() {}
}
