import { propertyOf, titled, withProperties, type JsonSchema } from '../openapi/json-schema';

/** A team member: the user's fields plus access_level (GitLab v3's ProjectMember entity). */
export function presentMember(member: { access_level: number; user: Record<string, unknown> }) {
  return { ...member.user, access_level: member.access_level };
}

/** presentMember's shape, from the selected membership's. */
export const memberSchema = (selected: JsonSchema) =>
  titled(
    'Member',
    withProperties(propertyOf(selected, 'user'), { access_level: propertyOf(selected, 'access_level') }),
  );
