/** A group member: UserBasic plus access_level (GitLab 7.14's GroupMember entity). */
export function presentGroupMember(member: { access_level: number; user: Record<string, unknown> }) {
  return { ...member.user, access_level: member.access_level };
}
