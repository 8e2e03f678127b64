/**
 * GitLab v3's MergeRequest entity: the document already names every field as v3 does (users in
 * the spec's full form); there is no milestone yet.
 */
export const presentMergeRequest = <T extends object>(mr: T) => ({ ...mr, milestone: null });
