/** The notify module's public face: the only file other modules and the HTTP layer import. */
export type { TMailboxPorts } from './dev-mailbox';
export { devMailbox } from './dev-mailbox';
export { MailCatcher } from './mail-catcher';
export type { TMailer } from './mailer';
export { SmtpMailer, UndeliverableMailer } from './mailer';
export type { TPushPorts, TVapidKeys } from './push';
export { deletePushSubscription, insertPushSubscription, listPushSubscriptions, loadVapidKeys } from './push';
export type { TSmsProvider } from './sms';
export { SandboxSmsProvider, SmsDeliveryError, UndeliverableSmsProvider } from './sms';
export { pushToUser, WebPushSender } from './web-push';
