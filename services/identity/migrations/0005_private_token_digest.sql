-- Private tokens are matched by their SHA-256 digest and kept sealed (AES-256-GCM, the key in
-- the process's settings) for GitLab 7's UserLogin entity; see src/domain/token-seal.ts.
-- The digest is computed here; the sealing needs the key, so identity seals the plain tokens
-- this leaves on its next start (sealPlainTokens) and clears them, before it serves requests.
alter table users add column private_token_digest text;
alter table users add column private_token_sealed text;
update users set private_token_digest = encode(sha256(convert_to(private_token, 'UTF8')), 'hex');
alter table users alter column private_token_digest set not null;
create unique index users_private_token_digest_key on users (private_token_digest);
drop index users_private_token_key;
alter table users alter column private_token drop not null;
