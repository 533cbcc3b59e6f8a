/**
 * The demo calendar: a small touring programme across ten venues. Everything is fixed (no random
 * values), so two runs on empty databases give the same calendar, with dates counted from the day
 * the seed runs.
 */

export interface DemoVenue {
  venue: string;
  address: string;
  city: string;
  state?: string;
  province?: string;
  zip: string;
  country: string;
  phone: string;
  website: string;
  geo_lat: number;
  geo_lng: number;
  /** The zone the venue's events are given in. */
  timezone: string;
}

export const DEMO_VENUES: DemoVenue[] = [
  {
    venue: 'Harbour Hall',
    address: '1 Quay Street',
    city: 'Dublin',
    zip: 'D02 X285',
    country: 'Ireland',
    phone: '+353 1 555 0101',
    website: 'https://harbour-hall.example.org',
    geo_lat: 53.3456,
    geo_lng: -6.2389,
    timezone: 'Europe/Dublin',
  },
  {
    venue: 'Le Caveau',
    address: '12 rue de la Huchette',
    city: 'Paris',
    zip: '75005',
    country: 'France',
    phone: '+33 1 55 55 01 02',
    website: 'https://le-caveau.example.org',
    geo_lat: 48.8529,
    geo_lng: 2.3458,
    timezone: 'Europe/Paris',
  },
  {
    venue: 'Kesselhaus',
    address: 'Knaackstraße 97',
    city: 'Berlin',
    zip: '10435',
    country: 'Germany',
    phone: '+49 30 5550103',
    website: 'https://kesselhaus.example.org',
    geo_lat: 52.5389,
    geo_lng: 13.4137,
    timezone: 'Europe/Berlin',
  },
  {
    venue: 'Riverside Loft',
    address: '220 Water Street',
    city: 'New York',
    state: 'NY',
    zip: '10038',
    country: 'United States',
    phone: '+1 212 555 0104',
    website: 'https://riverside-loft.example.org',
    geo_lat: 40.7075,
    geo_lng: -74.0021,
    timezone: 'America/New_York',
  },
  {
    venue: 'The Blue Note Room',
    address: '45 State Street',
    city: 'Chicago',
    state: 'IL',
    zip: '60603',
    country: 'United States',
    phone: '+1 312 555 0105',
    website: 'https://blue-note-room.example.org',
    geo_lat: 41.8817,
    geo_lng: -87.6278,
    timezone: 'America/Chicago',
  },
  {
    venue: 'Pacific Pavilion',
    address: '900 Embarcadero',
    city: 'San Francisco',
    state: 'CA',
    zip: '94111',
    country: 'United States',
    phone: '+1 415 555 0106',
    website: 'https://pacific-pavilion.example.org',
    geo_lat: 37.7989,
    geo_lng: -122.3984,
    timezone: 'America/Los_Angeles',
  },
  {
    venue: 'Maple Theatre',
    address: '77 King Street West',
    city: 'Toronto',
    province: 'ON',
    zip: 'M5H 1J9',
    country: 'Canada',
    phone: '+1 416 555 0107',
    website: 'https://maple-theatre.example.org',
    geo_lat: 43.6487,
    geo_lng: -79.3817,
    timezone: 'America/Toronto',
  },
  {
    venue: 'Sakura Stage',
    address: '3-1 Shibuya',
    city: 'Tokyo',
    zip: '150-0002',
    country: 'Japan',
    phone: '+81 3 5555 0108',
    website: 'https://sakura-stage.example.org',
    geo_lat: 35.6595,
    geo_lng: 139.7005,
    timezone: 'Asia/Tokyo',
  },
  {
    venue: 'Southern Cross Hall',
    address: '2 Circular Quay',
    city: 'Sydney',
    state: 'NSW',
    zip: '2000',
    country: 'Australia',
    phone: '+61 2 5550 0109',
    website: 'https://southern-cross.example.org',
    geo_lat: -33.861,
    geo_lng: 151.2108,
    timezone: 'Australia/Sydney',
  },
  {
    venue: 'Casa da Música Nova',
    address: 'Avenida da Boavista 604',
    city: 'Porto',
    zip: '4149-071',
    country: 'Portugal',
    phone: '+351 22 555 0110',
    website: 'https://casa-nova.example.org',
    geo_lat: 41.1588,
    geo_lng: -8.6307,
    timezone: 'Europe/Lisbon',
  },
];

export const DEMO_ORGANIZERS = [
  {
    organizer: 'Loopback Live',
    email: 'hello@loopback-live.example.org',
    phone: '+1 555 0201',
    website: 'https://loopback-live.example.org',
  },
  {
    organizer: 'Open Stage Collective',
    email: 'team@open-stage.example.org',
    phone: '+1 555 0202',
    website: 'https://open-stage.example.org',
  },
  { organizer: 'Maker Guild', email: 'guild@makers.example.org', phone: '+1 555 0203', website: 'https://makers.example.org' },
  {
    organizer: 'City Festivals Office',
    email: 'office@city-festivals.example.org',
    phone: '+1 555 0204',
    website: 'https://city-festivals.example.org',
  },
];

/** Top-level categories, then children naming their parent. */
export const DEMO_CATEGORIES: Array<{ name: string; description: string; parent?: string }> = [
  { name: 'Concerts', description: 'Live music of every kind' },
  { name: 'Workshops', description: 'Hands-on sessions in small groups' },
  { name: 'Theatre', description: 'Plays, improvisation and readings' },
  { name: 'Festivals', description: 'Several days, several stages' },
  { name: 'Talks', description: 'Lectures and conversations' },
  { name: 'Jazz', description: 'Small bands, late nights', parent: 'Concerts' },
];

export const DEMO_TAGS = ['family', 'outdoor', 'free', 'accessible', 'late-night', 'beginner'];

/** One programme line: what it is, who runs it, what it is filed under and how long it lasts. */
interface ProgrammeLine {
  title: string;
  category: string;
  organizer: number;
  tags: string[];
  startHour: number;
  hours: number;
  cost?: string;
  allDayDays?: number;
}

const PROGRAMME: ProgrammeLine[] = [
  { title: 'Late Night Jazz Session', category: 'Jazz', organizer: 0, tags: ['late-night'], startHour: 21, hours: 3, cost: '18' },
  { title: 'Intro to Screen Printing', category: 'Workshops', organizer: 2, tags: ['beginner'], startHour: 10, hours: 4, cost: '45' },
  { title: 'Improv Night', category: 'Theatre', organizer: 1, tags: ['accessible'], startHour: 19, hours: 2, cost: '12' },
  {
    title: 'Open-Air Summer Festival',
    category: 'Festivals',
    organizer: 3,
    tags: ['outdoor', 'family'],
    startHour: 0,
    hours: 0,
    cost: '0-60',
    allDayDays: 3,
  },
  { title: 'The Future of Cities', category: 'Talks', organizer: 3, tags: ['free', 'accessible'], startHour: 18, hours: 2, cost: 'Free' },
  { title: 'Chamber Orchestra Evening', category: 'Concerts', organizer: 0, tags: ['accessible'], startHour: 20, hours: 2, cost: '25-40' },
  { title: 'Family Robotics Lab', category: 'Workshops', organizer: 2, tags: ['family', 'beginner'], startHour: 14, hours: 3, cost: '10' },
  { title: 'Shakespeare in the Yard', category: 'Theatre', organizer: 1, tags: ['outdoor'], startHour: 19, hours: 3, cost: '20' },
  { title: 'Electronic Music Showcase', category: 'Concerts', organizer: 0, tags: ['late-night'], startHour: 22, hours: 4, cost: '15' },
  {
    title: 'Community Open Day',
    category: 'Festivals',
    organizer: 3,
    tags: ['free', 'family', 'outdoor'],
    startHour: 0,
    hours: 0,
    cost: 'Free',
    allDayDays: 1,
  },
];

export const DEMO_EVENT_COUNT = 50;

export interface DemoEvent {
  title: string;
  description: string;
  excerpt: string;
  start_date: string;
  end_date: string;
  all_day: boolean;
  timezone: string;
  cost?: string;
  featured: boolean;
  venueIndex: number;
  organizerIndex: number;
  category: string;
  tags: string[];
}

/** `YYYY-MM-DD` of the UTC day `days` after `from`. */
function dayAfter(from: Date, days: number): string {
  return new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() + days)).toISOString().slice(0, 10);
}

function at(day: string, hour: number): string {
  return `${day} ${String(hour).padStart(2, '0')}:00:00`;
}

/** Fifty events, one every three or four days from tomorrow: about six months of programme. */
export function demoEvents(today: Date): DemoEvent[] {
  return Array.from({ length: DEMO_EVENT_COUNT }, (_, index) => {
    const line = PROGRAMME[index % PROGRAMME.length];
    const venueIndex = (index * 3) % DEMO_VENUES.length;
    const venue = DEMO_VENUES[venueIndex];
    const edition = Math.floor(index / PROGRAMME.length) + 1;
    const startDay = dayAfter(today, 1 + Math.floor(index * 3.6));
    const allDay = line.allDayDays !== undefined;
    const endDay = allDay ? dayAfter(new Date(`${startDay}T00:00:00Z`), (line.allDayDays as number) - 1) : startDay;
    const endHour = line.startHour + line.hours;
    return {
      title: `${line.title} — ${venue.city}${edition > 1 ? ` #${edition}` : ''}`,
      description: `<p>${line.title} at ${venue.venue}, ${venue.city}.</p><p>Part of the demo calendar: edit or delete it freely.</p>`,
      excerpt: `${line.title} in ${venue.city}`,
      start_date: allDay ? startDay : at(startDay, line.startHour),
      // Late shows end after midnight, on the next day.
      end_date: allDay ? endDay : endHour >= 24 ? at(dayAfter(new Date(`${startDay}T00:00:00Z`), 1), endHour - 24) : at(startDay, endHour),
      all_day: allDay,
      timezone: venue.timezone,
      cost: line.cost,
      featured: index % 9 === 0,
      venueIndex,
      organizerIndex: line.organizer,
      category: line.category,
      tags: line.tags,
    };
  });
}

/** Occurrences of the demo's weekly series. */
export const DEMO_SERIES_OCCURRENCES = 8;

/**
 * A weekly class (docs/recurring-events.md), Tuesdays at 18:30 in Berlin, from the first Tuesday
 * after the one-off programme ends, so that it crosses no other demo event's place in the list.
 */
export function demoSeries(today: Date): Omit<DemoEvent, 'featured' | 'all_day'> & { recurrence: string } {
  let offset = 190;
  while (new Date(`${dayAfter(today, offset)}T00:00:00Z`).getUTCDay() !== 2) offset += 1;
  const day = dayAfter(today, offset);
  return {
    title: 'Evening yoga',
    description: '<p>A weekly class: each date is its own event, with its own tickets.</p>',
    excerpt: 'Weekly yoga in Berlin',
    start_date: `${day} 18:30:00`,
    end_date: at(day, 20),
    timezone: 'Europe/Berlin',
    cost: '12',
    venueIndex: 0,
    organizerIndex: 0,
    category: DEMO_CATEGORIES[0].name,
    tags: ['beginner'],
    recurrence: `RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=${DEMO_SERIES_OCCURRENCES}`,
  };
}

/**
 * Tickets of the first events, covering each provider (RSVP and Tickets Commerce) and each capacity
 * mode (own, capped and global sharing the event pool, unlimited).
 */
export interface DemoTicket {
  eventIndex: number;
  provider: 'rsvp' | 'tc';
  name: string;
  description: string;
  price?: string;
  ticket: { mode: 'own' | 'capped' | 'global' | ''; capacity?: number | ''; event_capacity?: number };
}

export const DEMO_TICKETS: DemoTicket[] = [
  { eventIndex: 0, provider: 'tc', name: 'Standard', description: 'Standing room', price: '18', ticket: { mode: 'own', capacity: 120 } },
  {
    eventIndex: 1,
    provider: 'tc',
    name: 'Workshop seat',
    description: 'Materials included',
    price: '45',
    ticket: { mode: 'own', capacity: 12 },
  },
  {
    eventIndex: 2,
    provider: 'rsvp',
    name: 'Free RSVP',
    description: 'Reserve a seat, pay at the door',
    ticket: { mode: 'own', capacity: 60 },
  },
  {
    eventIndex: 3,
    provider: 'tc',
    name: 'Festival pass',
    description: 'All three days',
    price: '60',
    ticket: { mode: 'global', event_capacity: 500 },
  },
  {
    eventIndex: 3,
    provider: 'tc',
    name: 'Day ticket',
    description: 'One day of your choice',
    price: '25',
    ticket: { mode: 'capped', capacity: 200, event_capacity: 500 },
  },
  {
    eventIndex: 3,
    provider: 'tc',
    name: 'Backstage tour',
    description: 'Limited places',
    price: '40',
    ticket: { mode: 'capped', capacity: 20 },
  },
  { eventIndex: 4, provider: 'rsvp', name: 'Free entry', description: 'No limit: come along', ticket: { mode: '', capacity: '' } },
  { eventIndex: 5, provider: 'tc', name: 'Stalls', description: 'Ground floor', price: '40', ticket: { mode: 'own', capacity: 80 } },
  { eventIndex: 5, provider: 'tc', name: 'Balcony', description: 'Upper level', price: '25', ticket: { mode: 'own', capacity: 40 } },
  {
    eventIndex: 6,
    provider: 'rsvp',
    name: 'Family place',
    description: 'One adult and up to two children',
    ticket: { mode: 'own', capacity: 15 },
  },
  {
    eventIndex: 8,
    provider: 'tc',
    name: 'Livestream',
    description: 'Watch online, no limit',
    price: '5',
    ticket: { mode: '', capacity: '' },
  },
  {
    eventIndex: 9,
    provider: 'rsvp',
    name: 'Open day RSVP',
    description: 'Helps us plan',
    ticket: { mode: 'capped', capacity: 300, event_capacity: 1000 },
  },
];

/** Real checkouts by anonymous buyers: RSVPs complete at once, paid orders are then marked paid. */
export interface DemoPurchase {
  ticketIndex: number;
  quantity: number;
  purchaser: { name: string; email: string };
  /** Names of the attendees, one per unit. */
  attendees: string[];
  checkIn?: boolean;
}

export const DEMO_PURCHASES: DemoPurchase[] = [
  {
    ticketIndex: 0,
    quantity: 2,
    purchaser: { name: 'Ada Lovelace', email: 'ada@example.org' },
    attendees: ['Ada Lovelace', 'Charles Babbage'],
    checkIn: true,
  },
  {
    ticketIndex: 2,
    quantity: 3,
    purchaser: { name: 'Grace Hopper', email: 'grace@example.org' },
    attendees: ['Grace Hopper', 'Howard Aiken', 'Jean Sammet'],
  },
  { ticketIndex: 3, quantity: 1, purchaser: { name: 'Alan Turing', email: 'alan@example.org' }, attendees: ['Alan Turing'] },
  {
    ticketIndex: 4,
    quantity: 2,
    purchaser: { name: 'Katherine Johnson', email: 'katherine@example.org' },
    attendees: ['Katherine Johnson', 'Dorothy Vaughan'],
  },
  {
    ticketIndex: 9,
    quantity: 1,
    purchaser: { name: 'Margaret Hamilton', email: 'margaret@example.org' },
    attendees: ['Margaret Hamilton'],
  },
];

export const DEMO_USER = { login: 'demo', email: 'demo@example.org', displayName: 'Demo Editor', role: 'editor' as const };
