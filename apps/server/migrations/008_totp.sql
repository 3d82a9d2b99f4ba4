-- Optional TOTP two-factor sign-in for traders (staff get theirs with the back-office issue).
alter table users add column totp_secret text;
alter table users add column totp_pending_secret text;
