import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface TCaughtMail {
  id: number;
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string | null;
  receivedAt: number;
}

/**
 * A local mail catcher for development and tests: a real SMTP server on loopback that keeps what it
 * receives in memory (the newest 500 messages), so mail is delivered over SMTP exactly as in
 * production and can be read back at /dev/mailbox.
 */
export class MailCatcher {
  private readonly server: SMTPServer;
  private readonly messages: TCaughtMail[] = [];
  private nextId = 1;
  port = 0;

  constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      size: 10 * 1024 * 1024,
      onData: (stream, session, callback) => {
        simpleParser(stream)
          .then((mail: ParsedMail) => {
            this.messages.unshift({
              id: this.nextId++,
              from: mail.from?.text ?? (session.envelope.mailFrom ? session.envelope.mailFrom.address : ''),
              to: session.envelope.rcptTo.map((r) => r.address),
              subject: mail.subject ?? '',
              text: mail.text ?? '',
              html: typeof mail.html === 'string' ? mail.html : null,
              receivedAt: Date.now(),
            });
            this.messages.splice(500);
            callback();
          })
          .catch((error: Error) => callback(error));
      },
    });
  }

  async start(port: number, host = '127.0.0.1'): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => resolve());
    });
    const address = this.server.server.address();
    this.port = typeof address === 'object' && address ? address.port : port;
    return this.port;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  list(to?: string): TCaughtMail[] {
    return to
      ? this.messages.filter((m) => m.to.some((r) => r.toLowerCase() === to.toLowerCase()))
      : [...this.messages];
  }
}
