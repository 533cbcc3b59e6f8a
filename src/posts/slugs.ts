import { Repository } from 'typeorm';

const MAX_SLUG_LENGTH = 190;

/** A URL-friendly name: lower case ASCII letters, digits and hyphens ("Café Night!" → "cafe-night"). */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&[a-z]+;|<[^>]*>/g, ' ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/g, '');
  return slug;
}

/**
 * The slug to store: `desired` (or one made from `fallbackText`), with `-2`, `-3`... appended when
 * another row of the same table already has it. `excludeId` is the row being updated.
 */
export async function uniqueSlug(
  repository: Repository<{ id: number; slug: string }>,
  desired: string,
  excludeId?: number,
): Promise<string> {
  const base = slugify(desired) || 'item';
  const rows = await repository
    .createQueryBuilder('row')
    .select(['row.id', 'row.slug'])
    // Slugs hold only [a-z0-9-], so the pattern needs no escaping.
    .where('(row.slug = :base OR row.slug LIKE :pattern)', { base, pattern: `${base}-%` })
    .getMany();
  const taken = new Set(rows.filter((row) => row.id !== excludeId).map((row) => row.slug));
  if (!taken.has(base)) return base;
  for (let suffix = 2; ; suffix += 1) {
    const candidate = `${base}-${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * The slugs to store for several new rows at once, in order: each as `uniqueSlug` would give it
 * had the rows before it been saved already (`-2`, `-3`... on a collision with the table or with
 * an earlier one of them). One read of the slugs sharing the wanted slugs' common prefix; wanted
 * slugs with no common prefix fall back to one read each.
 */
export async function uniqueSlugs(repository: Repository<{ id: number; slug: string }>, desired: string[]): Promise<string[]> {
  const bases = desired.map((text) => slugify(text) || 'item');
  if (bases.length === 0) return [];
  let prefix = bases[0];
  for (const base of bases) while (!base.startsWith(prefix)) prefix = prefix.slice(0, -1);
  if (prefix === '') {
    const slugs: string[] = [];
    // uniqueSlug reads the table, which does not hold the earlier ones yet: they are added here.
    for (const base of bases) slugs.push(nextFree(base, new Set([...(await takenSlugs(repository, base)), ...slugs])));
    return slugs;
  }
  const taken = new Set(await takenSlugs(repository, prefix, true));
  return bases.map((base) => {
    const slug = nextFree(base, taken);
    taken.add(slug);
    return slug;
  });
}

/** Slugs of the table equal to `base` or continuing it with `-` (or with anything, for a prefix). */
async function takenSlugs(repository: Repository<{ id: number; slug: string }>, base: string, isPrefix = false): Promise<string[]> {
  const query = repository.createQueryBuilder('row').select(['row.id', 'row.slug']);
  // Slugs hold only [a-z0-9-], so the patterns need no escaping.
  if (isPrefix) query.where('row.slug LIKE :pattern', { pattern: `${base}%` });
  else query.where('(row.slug = :base OR row.slug LIKE :pattern)', { base, pattern: `${base}-%` });
  return (await query.getMany()).map((row) => row.slug);
}

function nextFree(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  for (let suffix = 2; ; suffix += 1) {
    const candidate = `${base}-${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
