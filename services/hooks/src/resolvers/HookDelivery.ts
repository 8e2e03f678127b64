import type { HookDeliveryAttemptResolvers, HookDeliveryResolvers } from '../generated/graphql';

const headerList = (headers: Record<string, string> | null) =>
  headers && Object.entries(headers).map(([name, value]) => ({ name, value }));

export const hookDeliveryResolvers: HookDeliveryResolvers = {
  attempts: (delivery, _args, { loaders }) => loaders.attempts.load(delivery.id),
};

export const hookDeliveryAttemptResolvers: HookDeliveryAttemptResolvers = {
  requestHeaders: (attempt) => headerList(attempt.requestHeaders) ?? [],
  responseHeaders: (attempt) => headerList(attempt.responseHeaders),
};
