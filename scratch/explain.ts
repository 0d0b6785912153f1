import { openBenchDb, explainShapes } from '../bench/queries.ts';
import { loadAllTenants } from '../src/tenant/load.ts';
import { TENANTS_DIR } from '../cli/paths.ts';
const handle = openBenchDb('postgres', { file: '', schema: 'probe' });
const tenant = loadAllTenants(TENANTS_DIR).find((t) => t.id === 'spetter')!;
const me = await handle.db.selectFrom('profiles').select(['id', 'user_id']).where('tenant_id', '=', 'spetter').where('gender', '=', 'male').where('sexuality', '=', 'hetero').where('country', '=', 'NL').where('user_id', 'is not', null).limit(1).executeTakeFirstOrThrow();
for (const p of await explainShapes(handle, tenant, { userId: me.user_id!, profileId: me.id })) console.log(p.shape, p.scans);
await handle.close();
