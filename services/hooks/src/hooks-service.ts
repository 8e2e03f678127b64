import {
  authorize,
  guardProjectWrite,
  invalid,
  notFound,
  recordNotFound,
  requireUser,
  type AccessClient,
  type Principal,
  type Sql,
} from '@hub/common';
import * as deliveries from './db/deliveries';
import * as hooks from './db/hooks';
import type { HookRow, HookSettings } from './db/hooks';
import type { DeliveryQueue } from './delivery/queue';
import { resendDelivery } from './delivery/resend';
import { newSigningSecret } from './delivery/signing';
import { checkHookUrl } from './domain/hook-url';
import type { UpdateHookInput } from './generated/graphql';

/** A hook's URL, event flags and token, as createHook and updateHook give them. */
type HookInput = Omit<UpdateHookInput, 'clientMutationId' | 'projectId' | 'hookId'>;

/** Visible ASCII and spaces, at most 255 characters, as a header value may hold. */
const HEADER_VALUE = /^[\x20-\x7e]{1,255}$/;

/** GitLab 7.14's defaults: push events on, everything else off. */
const DEFAULT_FLAGS = {
  pushEvents: true,
  tagPushEvents: false,
  issuesEvents: false,
  mergeRequestsEvents: false,
  noteEvents: false,
};

/**
 * Project hooks: managing them is GitLab's admin_project (Master and above, and admins); a
 * private project stays 404 to everyone else, as on every route.
 */
export function createHooksService(deps: {
  sql: Sql;
  access: AccessClient;
  queue: DeliveryQueue;
  allowLocal: boolean;
}) {
  const { sql } = deps;

  async function authorizeAdmin(principal: Principal, projectId: number) {
    requireUser(principal);
    authorize(await deps.access.loader(principal).load(projectId), principal, 'admin_project');
  }

  async function hookOr404(projectId: number, id: number): Promise<HookRow> {
    const hook = await hooks.findHook(sql, projectId, id);
    // ActiveRecord's RecordNotFound (`hooks.find`), as GitLab answered for a hook id it did not find.
    if (!hook) throw recordNotFound();
    return hook;
  }

  /** The settings an input gives; flags left out keep `base`'s value. */
  async function settingsOf(input: HookInput, base: Pick<HookRow, hooks.EventFlag | 'token'>): Promise<HookSettings> {
    const flag = (name: hooks.EventFlag) => input[name] ?? base[name];
    // It travels as a header value: nothing a header cannot carry.
    if (input.token && !HEADER_VALUE.test(input.token)) throw invalid({ token: ['is invalid'] });
    return {
      url: await checkHookUrl(input.url, deps.allowLocal),
      pushEvents: flag('pushEvents'),
      tagPushEvents: flag('tagPushEvents'),
      issuesEvents: flag('issuesEvents'),
      mergeRequestsEvents: flag('mergeRequestsEvents'),
      noteEvents: flag('noteEvents'),
      token: input.token === undefined || input.token === null ? base.token : input.token === '' ? null : input.token,
    };
  }

  return {
    authorizeAdmin,

    async create(principal: Principal, projectId: number, input: HookInput): Promise<HookRow> {
      await authorizeAdmin(principal, projectId);
      const settings = await settingsOf(input, { ...DEFAULT_FLAGS, token: null });
      // Not after the project's deletion has removed its hooks (project-tombstones).
      return sql.begin(async (tx) => {
        await guardProjectWrite(tx, projectId);
        return hooks.insertHook(tx, { ...settings, projectId, signingSecret: newSigningSecret() });
      });
    },

    async update(principal: Principal, projectId: number, id: number, input: HookInput): Promise<HookRow> {
      await authorizeAdmin(principal, projectId);
      const hook = await hookOr404(projectId, id);
      const settings = await settingsOf(input, hook);
      return sql.begin(async (tx) => {
        await guardProjectWrite(tx, projectId);
        // Deleted between the read and this write (a DELETE racing the PUT): v3's 404, as if it
        // had been gone before; the payload would otherwise hold no hook, which the facade answers 500.
        const updated = await hooks.updateHook(tx, hook.id, settings);
        if (!updated) throw recordNotFound();
        return updated;
      });
    },

    /** Idempotent: the removed hook, or null when there was none. */
    async remove(principal: Principal, projectId: number, id: number): Promise<HookRow | null> {
      await authorizeAdmin(principal, projectId);
      return (await hooks.deleteHook(sql, projectId, id)) ?? null;
    },

    /** Sends a logged delivery again: same payload and webhook-id, a new series of attempts. */
    async resend(principal: Principal, projectId: number, hookId: number, id: number) {
      await authorizeAdmin(principal, projectId);
      const hook = await hookOr404(projectId, hookId);
      const delivery = await deliveries.findDelivery(sql, hook.id, id);
      if (!delivery) throw notFound();
      return resendDelivery(deps, delivery);
    },
  };
}

export type HooksService = ReturnType<typeof createHooksService>;
