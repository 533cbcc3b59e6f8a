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
