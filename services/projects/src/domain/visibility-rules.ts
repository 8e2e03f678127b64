import {
  restrictedVisibilityRefusal,
  usersLookup,
  type InternalClient,
  type Principal,
  type SettingsClient,
} from '@hub/common';

/**
 * The application settings that decide a project's visibility level: the default for projects
 * created without one, and the levels only admins may choose.
 */
export function createVisibilityRules(deps: { settings: SettingsClient }) {
  async function refuseRestricted(isAdmin: boolean, level: number): Promise<void> {
    if (isAdmin) return;
    const refusal = restrictedVisibilityRefusal(await deps.settings.get(), isAdmin, level);
    if (refusal) throw refusal;
  }

  return {
    /**
     * The level of a new project: the one asked for, else default_project_visibility (GitLab's
     * web form preselected the setting; its API fell back to gitlab.yml's default, which the
     * setting stands in for here). GitLab's Projects::CreateService refused a restricted level
     * for non-admins (Gitlab::VisibilityLevel.allowed_for?), and the API answered that with
     * render_validation_error!'s 400; the level checked is the one the project would get.
     * `owner` is the user an admin creates the project for (POST /projects/user/:user_id):
     * GitLab ran CreateService as that user, so their admin flag decides, not the caller's.
     */
    async forNewProject(
      principal: Principal,
      asked: number | undefined,
      owner?: { id: number; identity: InternalClient },
    ): Promise<number> {
      const level = asked ?? (await deps.settings.get()).defaultProjectVisibility;
      const creatorIsAdmin = owner
        ? ((await owner.identity.call(usersLookup, { ids: [owner.id] })).users[0]?.isAdmin ?? false)
        : principal.isAdmin;
      await refuseRestricted(creatorIsAdmin, level);
      return level;
    },

    /** GitLab's Projects::UpdateService: a level that changes must not be restricted for non-admins. */
    async checkChange(principal: Principal, current: number, asked: number | undefined): Promise<void> {
      if (asked !== undefined && asked !== current) await refuseRestricted(principal.isAdmin, asked);
    },
  };
}

export type VisibilityRules = ReturnType<typeof createVisibilityRules>;
