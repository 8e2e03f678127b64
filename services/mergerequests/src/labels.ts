import { DomainError, ErrorCode, issuableMetadataCheck, labelsEnsure, type InternalClient } from '@hub/common';

/** IssuableFinder::NONE: a milestone_id of 0 takes the milestone away. */
const NO_MILESTONE = 0;

/**
 * Labels and milestones belong to the notes service: a merge request keeps label names and a
 * milestone id, checked against the (target) project's through the notes contract.
 */
export function createLabelsAndMilestones(notes: InternalClient) {
  return {
    /**
     * The label names as the merge request keeps them (stripped, distinct, sorted; null when none
     * were given), refused the way GitLab's validate_label_params refused them before touching
     * the merge request: 400 `{"message": {"labels": {"<name>": {"title": [...]}}}}`. The
     * milestone: undefined when not given, null for 0 or one that is not the project's (later
     * GitLab's filter_milestone; 7.14 took any id), else its id.
     */
    async check(projectId: number, labels: readonly string[] | null | undefined, milestoneId: number | null | undefined) {
      const askMilestone = milestoneId != null && milestoneId !== NO_MILESTONE && milestoneId > 0 ? milestoneId : null;
      if (labels == null && askMilestone === null) return { labels: null, milestoneId: milestoneId == null ? undefined : null };
      const answer = await notes.call(issuableMetadataCheck, { projectId, labels: labels == null ? null : [...labels], milestoneId: askMilestone });
      if (Object.keys(answer.labelErrors).length) throw new DomainError(ErrorCode.VALIDATION, 'Validation failed', { fields: { labels: answer.labelErrors } });
      return { labels: answer.labels, milestoneId: milestoneId == null ? undefined : answer.milestoneId };
    },

    /** add_labels_by_names: the project's labels of these names, made when missing. */
    async ensure(projectId: number, names: readonly string[]) {
      if (names.length) await notes.call(labelsEnsure, { projectId, names: [...names] });
    },
  };
}

export type LabelsAndMilestones = ReturnType<typeof createLabelsAndMilestones>;
