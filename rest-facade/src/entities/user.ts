import { anyOf, presentedShape, titled, type JsonSchema } from '../openapi/json-schema';

/**
 * GitLab v3's user entities (lib/api/entities.rb), each a superset of the one before:
 * UserBasic ⊂ User ⊂ UserFull ⊂ UserLogin. The documents fetch every field under its v3 name;
 * these lists decide which ones a response shows.
 */
const USER_BASIC = ['id', 'username', 'name', 'state', 'avatar_url', 'web_url'] as const;
const USER = [...USER_BASIC, 'created_at', 'is_admin', 'bio', 'skype', 'linkedin', 'twitter', 'website_url'] as const;
const USER_FULL = [
  ...USER,
  'email',
  'theme_id',
  'color_scheme_id',
  'projects_limit',
  'current_sign_in_at',
  'identities',
  'can_create_group',
  'can_create_project',
  'two_factor_enabled',
] as const;
const USER_LOGIN = [...USER_FULL, 'private_token'] as const;

/** The v3 entity's fields of whatever user document a route fetched; absent ones show as null. */
const pick = (object: object, keys: readonly string[]) =>
  Object.fromEntries(keys.map((key) => [key, (object as Record<string, unknown>)[key] ?? null]));

/** What GET /users and GET /users/:id show: everything to admins, the public profile to others. */
export const presentUser = (user: object, viewerIsAdmin: boolean) => pick(user, viewerIsAdmin ? USER_FULL : USER);
export const presentUserFull = (user: object) => pick(user, USER_FULL);
/** GET /user and POST /session: the caller's own account with its private token (GitLab 7.14–8.11). */
export const presentUserLogin = (user: object) => pick(user, USER_LOGIN);

/** The shapes of the presenters above, from the shape of the document's user. */
export const userSchema = (selected: JsonSchema) =>
  titled(
    'User',
    presentedShape((user: object) => presentUser(user, false), selected),
  );
export const userFullSchema = (selected: JsonSchema) => titled('UserFull', presentedShape(presentUserFull, selected));
export const userLoginSchema = (selected: JsonSchema) =>
  titled('UserLogin', presentedShape(presentUserLogin, selected));
/** presentUser's: one or the other, by who asks. */
export const userForViewerSchema = (selected: JsonSchema) => anyOf(userSchema(selected), userFullSchema(selected));
