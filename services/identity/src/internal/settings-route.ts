import { applicationSettingsLookup, createInternalRouter, serveEndpoint, type Logger } from '@hub/common';
import type { Router } from 'express';
import type { ApplicationSettingsService } from '../domain/application-settings';

/** The settings, for the services that apply them (through their settings client). */
export function createSettingsRouter(deps: {
  settings: ApplicationSettingsService;
  secret: string;
  logger: Logger;
}): Router {
  const router = createInternalRouter(deps.secret);
  serveEndpoint(router, applicationSettingsLookup, deps.logger, async () => {
    const row = await deps.settings.current();
    return {
      settings: {
        defaultBranchProtection: row.defaultBranchProtection,
        restrictedVisibilityLevels: row.restrictedVisibilityLevels,
        defaultProjectVisibility: row.defaultProjectVisibility,
      },
    };
  });
  return router;
}
