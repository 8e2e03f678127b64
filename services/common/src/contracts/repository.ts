// The contract of services/repository: its internal endpoint. Owned by repository.
import { z } from 'zod';
import { endpoint } from './define';
import { id } from './shared';

/** A project's protected branch names (merge requests: may this user merge into the target?). */
export const protectedBranches = endpoint('/internal/protected-branches', z.object({ projectId: id }), z.object({ names: z.array(z.string()) }));
