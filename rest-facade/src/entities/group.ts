import { propertyOf, titled, withProperties, type JsonSchema } from '../openapi/json-schema';

/** A group member: UserBasic plus access_level (GitLab 7.14's GroupMember entity). */
export function presentGroupMember(member: { access_level: number; user: Record<string, unknown> }) {
  return { ...member.user, access_level: member.access_level };
}

/** presentGroupMember's shape, from the selected membership's. */
export const groupMemberSchema = (selected: JsonSchema) =>
  titled(
    'GroupMember',
    withProperties(propertyOf(selected, 'user'), { access_level: propertyOf(selected, 'access_level') }),
  );
