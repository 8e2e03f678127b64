/** A team member: the user's fields plus access_level (GitLab v3's ProjectMember entity). */
export function presentMember(member: { access_level: number; user: Record<string, unknown> }) {
  return { ...member.user, access_level: member.access_level };
}
