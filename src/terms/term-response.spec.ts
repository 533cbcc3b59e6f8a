import { Category } from '../categories/category.entity';
import { Tag } from '../tags/tag.entity';
import type { RequestContext } from '../auth/request-context';
import { toEmbeddedTermResponse, toTermListResponse, toTermResponse } from './term-response';

const context: RequestContext = {
  origin: 'https://example.org',
  siteId: 'example.org',
  apiPrefix: 'tribe',
  siteTimezone: 'UTC',
  namespaceUrl: (name, path) => `https://example.org/wp-json/tribe/${name}/v1${path ? `/${path}` : ''}`,
};

function category(fields: Partial<Category>): Category {
  return Object.assign(
    new Category(),
    { id: 2, name: 'Workshops', slug: 'workshops', description: 'Hands-on sessions', parentId: null },
    fields,
  );
}

function tag(fields: Partial<Tag>): Tag {
  return Object.assign(new Tag(), { id: 3, name: 'beginner', slug: 'beginner', description: null }, fields);
}

describe('toTermResponse', () => {
  it('builds a category in the order of 23-category-single.json, with the prefix in its taxonomy', () => {
    const response = toTermResponse(category({}), 'category', 1, context);
    expect(Object.keys(response)).toEqual(['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'parent', 'meta', 'url', 'urls']);
    expect(response).toEqual({
      id: 2,
      count: 1,
      description: 'Hands-on sessions',
      name: 'Workshops',
      slug: 'workshops',
      taxonomy: 'tribe_events_cat',
      parent: 0,
      meta: [],
      url: 'https://example.org/events/category/workshops/',
      urls: {
        self: 'https://example.org/wp-json/tribe/events/v1/categories/2',
        collection: 'https://example.org/wp-json/tribe/events/v1/categories',
      },
    });
  });

  it('links a child category up to its parent', () => {
    const response = toTermResponse(category({ parentId: 9 }), 'category', 0, context);
    expect(response).toMatchObject({ parent: 9, urls: { up: 'https://example.org/wp-json/tribe/events/v1/categories/9' } });
  });

  it('builds a tag in the order of 25-tag-single.json, without parent', () => {
    const response = toTermResponse(tag({}), 'tag', 1, context);
    expect(Object.keys(response)).toEqual(['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'meta', 'url', 'urls']);
    expect(response).toMatchObject({ description: '', taxonomy: 'post_tag', url: 'https://example.org/events/tag/beginner/' });
  });
});

describe('toEmbeddedTermResponse', () => {
  it('builds the term as 14-event-single.json embeds it', () => {
    expect(toEmbeddedTermResponse(category({}), 'category', 1, context)).toEqual({
      name: 'Workshops',
      slug: 'workshops',
      term_group: 0,
      term_taxonomy_id: 2,
      taxonomy: 'tribe_events_cat',
      description: 'Hands-on sessions',
      parent: 0,
      count: 1,
      filter: 'raw',
      id: 2,
      urls: {
        self: 'https://example.org/wp-json/tribe/events/v1/categories/2',
        collection: 'https://example.org/wp-json/tribe/events/v1/categories',
      },
    });
    const embeddedTag = toEmbeddedTermResponse(tag({}), 'tag', 1, context);
    expect(Object.keys(embeddedTag)).toEqual([
      'name',
      'slug',
      'term_group',
      'term_taxonomy_id',
      'taxonomy',
      'description',
      'parent',
      'count',
      'filter',
      'id',
      'urls',
    ]);
    expect(embeddedTag).toMatchObject({ parent: 0, taxonomy: 'post_tag', description: '' });
  });

  it('adds urls.up for a child category', () => {
    expect(toEmbeddedTermResponse(category({ parentId: 4 }), 'category', 0, context).urls.up).toBe(
      'https://example.org/wp-json/tribe/events/v1/categories/4',
    );
  });
});

describe('toTermListResponse', () => {
  it('orders the keys as 22-categories.json, the page links last', () => {
    const body = toTermListResponse(
      { items: [{ term: category({}), count: 1 }], page: 2, total: 3, totalPages: 3, query: [['per_page', '1']] },
      'category',
      context,
    );
    expect(Object.keys(body)).toEqual(['rest_url', 'total', 'total_pages', 'categories', 'next_rest_url', 'previous_rest_url']);
    expect(body.rest_url).toBe('https://example.org/wp-json/tribe/events/v1/categories/?page=2&per_page=1');
    expect(body.next_rest_url).toBe('https://example.org/wp-json/tribe/events/v1/categories/?page=3&per_page=1');
    expect(body.previous_rest_url).toBe('https://example.org/wp-json/tribe/events/v1/categories/?per_page=1');
  });
});
