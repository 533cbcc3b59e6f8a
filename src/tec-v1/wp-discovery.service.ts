import { Injectable } from '@nestjs/common';
import type { RequestContext, SignedInContext } from '../auth/request-context';
import { UsersService } from '../auth/users.service';
import { invalidParam } from '../common/errors/api-error';
import { ApiUrls } from '../common/http/api-urls.service';
import { siteGmtOffset } from '../namespaces/namespaces.service';
import { WpSettingsResponse, WpUserResponse } from './dto/wp-discovery.response';

/** What a WordPress client reads before anything else: who it is signed in as, and the site's settings. */
@Injectable()
export class WpDiscoveryService {
  constructor(
    private readonly users: UsersService,
    private readonly urls: ApiUrls,
  ) {}

  async me(context: SignedInContext, scope: unknown): Promise<WpUserResponse> {
    if (scope !== undefined && scope !== 'view' && scope !== 'embed' && scope !== 'edit')
      throw invalidParam('context', 'context is not one of view, embed, and edit.');
    const user = await this.users.findById(context.user.id);
    const login = user?.login ?? context.user.login;
    const slug = login.toLowerCase().replace(/[^a-z0-9_-]+/g, '-');
    const edit = scope === 'edit';
    return {
      id: context.user.id,
      ...(edit ? { username: login } : {}),
      name: user?.displayName || login,
      url: '',
      description: '',
      link: `${context.origin}/author/${slug}/`,
      slug,
      ...(edit ? { email: user?.email ?? '', roles: [context.user.role] } : {}),
      avatar_urls: {},
    };
  }

  settings(context: RequestContext): WpSettingsResponse {
    const zone = this.urls.siteTimezone;
    return {
      title: this.urls.siteName,
      description: this.urls.siteDescription,
      url: context.origin,
      timezone: zone,
      date_format: 'F j, Y',
      time_format: 'g:i a',
      start_of_week: 1,
      language: 'en_US',
      gmt_offset: siteGmtOffset(zone),
      timezone_string: zone,
    };
  }
}
