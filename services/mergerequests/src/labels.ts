import { issuableMetadataPrepare, NO_MILESTONE, type InternalClient } from '@hub/common';

/**
 * Labels and milestones belong to the notes service: a merge request keeps label names and a
 * milestone id of its (target) project. The names are checked here with the shared label rules
 * (@hub/common's labelNames, GitLab's validate_label_params); notes is asked once, when the merge
 * request is about to be saved, so a refused merge request makes no labels.
 */
export function createLabelsAndMilestones(notes: InternalClient) {
  return {
    /**
     * Has the labels of these (checked) names made in the project, as add_labels_by_names did, and
     * answers the milestone: undefined when none was given, null for 0 or one that is not the
     * project's (later GitLab's filter_milestone; 7.14 took any id), else its id.
     */
    async prepare(
      projectId: number,
      labels: readonly string[],
      milestoneId: number | null | undefined,
    ): Promise<number | null | undefined> {
      // No milestone has an id of 0 (NO_MILESTONE, which takes it away) or below.
      const asked = milestoneId != null && milestoneId > NO_MILESTONE ? milestoneId : null;
      if (labels.length === 0 && asked === null) return milestoneId == null ? undefined : null;
      const answer = await notes.call(issuableMetadataPrepare, { projectId, labels: [...labels], milestoneId: asked });
      return milestoneId == null ? undefined : answer.milestoneId;
    },
  };
}

export type LabelsAndMilestones = ReturnType<typeof createLabelsAndMilestones>;
