/**
 * Words the generated calendar is made of. Fixed lists (no randomness here): the generator picks
 * from them with the run's seed.
 */

export interface City {
  city: string;
  country: string;
  /** US states and Australian states go to `state`, Canadian provinces to `province`. */
  state?: string;
  province?: string;
  zone: string;
  lat: number;
  lng: number;
  phonePrefix: string;
  /** How many venues of every hundred are in this city. */
  weight: number;
}

export const CITIES: readonly City[] = [
  { city: 'New York', country: 'United States', state: 'NY', zone: 'America/New_York', lat: 40.7128, lng: -74.006, phonePrefix: '+1 212 555', weight: 8 },
  { city: 'Boston', country: 'United States', state: 'MA', zone: 'America/New_York', lat: 42.3601, lng: -71.0589, phonePrefix: '+1 617 555', weight: 3 },
  { city: 'Philadelphia', country: 'United States', state: 'PA', zone: 'America/New_York', lat: 39.9526, lng: -75.1652, phonePrefix: '+1 215 555', weight: 2 },
  { city: 'Washington', country: 'United States', state: 'DC', zone: 'America/New_York', lat: 38.9072, lng: -77.0369, phonePrefix: '+1 202 555', weight: 2 },
  { city: 'Atlanta', country: 'United States', state: 'GA', zone: 'America/New_York', lat: 33.749, lng: -84.388, phonePrefix: '+1 404 555', weight: 2 },
  { city: 'Miami', country: 'United States', state: 'FL', zone: 'America/New_York', lat: 25.7617, lng: -80.1918, phonePrefix: '+1 305 555', weight: 2 },
  { city: 'Chicago', country: 'United States', state: 'IL', zone: 'America/Chicago', lat: 41.8781, lng: -87.6298, phonePrefix: '+1 312 555', weight: 5 },
  { city: 'Austin', country: 'United States', state: 'TX', zone: 'America/Chicago', lat: 30.2672, lng: -97.7431, phonePrefix: '+1 512 555', weight: 3 },
  { city: 'Nashville', country: 'United States', state: 'TN', zone: 'America/Chicago', lat: 36.1627, lng: -86.7816, phonePrefix: '+1 615 555', weight: 2 },
  { city: 'New Orleans', country: 'United States', state: 'LA', zone: 'America/Chicago', lat: 29.9511, lng: -90.0715, phonePrefix: '+1 504 555', weight: 2 },
  { city: 'Minneapolis', country: 'United States', state: 'MN', zone: 'America/Chicago', lat: 44.9778, lng: -93.265, phonePrefix: '+1 612 555', weight: 1 },
  { city: 'Denver', country: 'United States', state: 'CO', zone: 'America/Denver', lat: 39.7392, lng: -104.9903, phonePrefix: '+1 303 555', weight: 2 },
  { city: 'Phoenix', country: 'United States', state: 'AZ', zone: 'America/Phoenix', lat: 33.4484, lng: -112.074, phonePrefix: '+1 602 555', weight: 1 },
  { city: 'Los Angeles', country: 'United States', state: 'CA', zone: 'America/Los_Angeles', lat: 34.0522, lng: -118.2437, phonePrefix: '+1 213 555', weight: 6 },
  { city: 'San Francisco', country: 'United States', state: 'CA', zone: 'America/Los_Angeles', lat: 37.7749, lng: -122.4194, phonePrefix: '+1 415 555', weight: 4 },
  { city: 'Seattle', country: 'United States', state: 'WA', zone: 'America/Los_Angeles', lat: 47.6062, lng: -122.3321, phonePrefix: '+1 206 555', weight: 3 },
  { city: 'Portland', country: 'United States', state: 'OR', zone: 'America/Los_Angeles', lat: 45.5152, lng: -122.6784, phonePrefix: '+1 503 555', weight: 2 },
  { city: 'Toronto', country: 'Canada', province: 'ON', zone: 'America/Toronto', lat: 43.6532, lng: -79.3832, phonePrefix: '+1 416 555', weight: 3 },
  { city: 'Montreal', country: 'Canada', province: 'QC', zone: 'America/Toronto', lat: 45.5019, lng: -73.5674, phonePrefix: '+1 514 555', weight: 2 },
  { city: 'Vancouver', country: 'Canada', province: 'BC', zone: 'America/Vancouver', lat: 49.2827, lng: -123.1207, phonePrefix: '+1 604 555', weight: 2 },
  { city: 'Mexico City', country: 'Mexico', zone: 'America/Mexico_City', lat: 19.4326, lng: -99.1332, phonePrefix: '+52 55 5555', weight: 2 },
  { city: 'São Paulo', country: 'Brazil', zone: 'America/Sao_Paulo', lat: -23.5505, lng: -46.6333, phonePrefix: '+55 11 5555', weight: 2 },
  { city: 'London', country: 'United Kingdom', zone: 'Europe/London', lat: 51.5074, lng: -0.1278, phonePrefix: '+44 20 7946', weight: 6 },
  { city: 'Manchester', country: 'United Kingdom', zone: 'Europe/London', lat: 53.4808, lng: -2.2426, phonePrefix: '+44 161 496', weight: 2 },
  { city: 'Edinburgh', country: 'United Kingdom', zone: 'Europe/London', lat: 55.9533, lng: -3.1883, phonePrefix: '+44 131 496', weight: 2 },
  { city: 'Dublin', country: 'Ireland', zone: 'Europe/Dublin', lat: 53.3498, lng: -6.2603, phonePrefix: '+353 1 555', weight: 2 },
  { city: 'Paris', country: 'France', zone: 'Europe/Paris', lat: 48.8566, lng: 2.3522, phonePrefix: '+33 1 55 55', weight: 4 },
  { city: 'Lyon', country: 'France', zone: 'Europe/Paris', lat: 45.764, lng: 4.8357, phonePrefix: '+33 4 55 55', weight: 1 },
  { city: 'Berlin', country: 'Germany', zone: 'Europe/Berlin', lat: 52.52, lng: 13.405, phonePrefix: '+49 30 5555', weight: 4 },
  { city: 'Hamburg', country: 'Germany', zone: 'Europe/Berlin', lat: 53.5511, lng: 9.9937, phonePrefix: '+49 40 5555', weight: 1 },
  { city: 'Munich', country: 'Germany', zone: 'Europe/Berlin', lat: 48.1351, lng: 11.582, phonePrefix: '+49 89 5555', weight: 2 },
  { city: 'Amsterdam', country: 'Netherlands', zone: 'Europe/Amsterdam', lat: 52.3676, lng: 4.9041, phonePrefix: '+31 20 555', weight: 2 },
  { city: 'Madrid', country: 'Spain', zone: 'Europe/Madrid', lat: 40.4168, lng: -3.7038, phonePrefix: '+34 91 555', weight: 2 },
  { city: 'Barcelona', country: 'Spain', zone: 'Europe/Madrid', lat: 41.3874, lng: 2.1686, phonePrefix: '+34 93 555', weight: 2 },
  { city: 'Lisbon', country: 'Portugal', zone: 'Europe/Lisbon', lat: 38.7223, lng: -9.1393, phonePrefix: '+351 21 555', weight: 1 },
  { city: 'Rome', country: 'Italy', zone: 'Europe/Rome', lat: 41.9028, lng: 12.4964, phonePrefix: '+39 06 5555', weight: 2 },
  { city: 'Stockholm', country: 'Sweden', zone: 'Europe/Stockholm', lat: 59.3293, lng: 18.0686, phonePrefix: '+46 8 555', weight: 1 },
  { city: 'Mumbai', country: 'India', zone: 'Asia/Kolkata', lat: 19.076, lng: 72.8777, phonePrefix: '+91 22 5555', weight: 1 },
  { city: 'Singapore', country: 'Singapore', zone: 'Asia/Singapore', lat: 1.3521, lng: 103.8198, phonePrefix: '+65 6555', weight: 1 },
  { city: 'Tokyo', country: 'Japan', zone: 'Asia/Tokyo', lat: 35.6762, lng: 139.6503, phonePrefix: '+81 3 5555', weight: 3 },
  { city: 'Sydney', country: 'Australia', state: 'NSW', zone: 'Australia/Sydney', lat: -33.8688, lng: 151.2093, phonePrefix: '+61 2 5550', weight: 3 },
  { city: 'Melbourne', country: 'Australia', state: 'VIC', zone: 'Australia/Melbourne', lat: -37.8136, lng: 144.9631, phonePrefix: '+61 3 5550', weight: 2 },
];

/** Zones of events without a venue (online events), as their organisers would give them. */
export const ONLINE_EVENT_ZONES = ['UTC', 'America/New_York', 'Europe/London', 'America/Los_Angeles'] as const;

export const VENUE_FIRST_WORDS = [
  'Harbour', 'Velvet', 'Copper', 'Blue', 'Golden', 'Old', 'Grand', 'Little', 'Riverside', 'Union', 'Crystal', 'Lantern',
  'Maple', 'Granite', 'Northern', 'Silver', 'Electric', 'Hidden', 'Paper', 'Garden', 'Lighthouse', 'Foundry', 'Station', 'Orchard',
  'Canal', 'Market', 'Mill', 'Brick', 'Cedar', 'Willow',
] as const;

export const VENUE_KINDS = [
  'Hall', 'Room', 'Theatre', 'Lounge', 'Club', 'Arena', 'Pavilion', 'Loft', 'Gallery', 'Warehouse', 'Studio', 'Auditorium',
  'Garden', 'Library', 'Tavern', 'Stage', 'Playhouse', 'Ballroom', 'Community Centre', 'Conference Centre',
] as const;

export const STREET_NAMES = [
  'Main', 'High', 'Church', 'Market', 'Station', 'Mill', 'King', 'Queen', 'Park', 'River', 'Bridge', 'Harbour', 'Elm', 'Oak',
  'Maple', 'Victoria', 'Union', 'Water', 'Chapel', 'North', 'South', 'West', 'Garden', 'Castle',
] as const;

export const STREET_KINDS = ['Street', 'Avenue', 'Road', 'Lane', 'Boulevard', 'Square', 'Place', 'Way'] as const;

export const FIRST_NAMES = [
  'Ada', 'Alan', 'Amara', 'Ana', 'Anders', 'Aisha', 'Ben', 'Bianca', 'Carlos', 'Chen', 'Chloe', 'Dmitri', 'Elena', 'Emil', 'Fatima',
  'Felix', 'Grace', 'Hana', 'Hugo', 'Ines', 'Isaac', 'Jamal', 'Jana', 'Jonas', 'Kai', 'Keiko', 'Lars', 'Leila', 'Liam', 'Lucia',
  'Maya', 'Mateo', 'Nadia', 'Noah', 'Nora', 'Olga', 'Omar', 'Priya', 'Rafael', 'Rosa', 'Samir', 'Sofia', 'Tariq', 'Tomás',
  'Uma', 'Victor', 'Wen', 'Yara', 'Yusuf', 'Zoe',
] as const;

export const LAST_NAMES = [
  'Adams', 'Becker', 'Bianchi', 'Brown', 'Castro', 'Costa', 'Dubois', 'Eriksson', 'Fischer', 'García', 'Hansen', 'Ito', 'Jensen',
  'Kim', 'Kowalski', 'Larsen', 'Lee', 'Lopez', 'Martin', 'Meyer', 'Moreau', 'Müller', 'Nakamura', 'Nguyen', 'Novak', 'O’Brien',
  'Okafor', 'Patel', 'Petrov', 'Rossi', 'Santos', 'Schmidt', 'Silva', 'Smith', 'Suzuki', 'Tanaka', 'Taylor', 'Walsh', 'Wang',
  'Weber', 'Williams', 'Wilson', 'Yamamoto', 'Zhang',
] as const;

export const ORGANIZER_PATTERNS = [
  (name: string) => `${name} Productions`,
  (name: string) => `${name} Presents`,
  (name: string) => `${name} Collective`,
  (name: string) => `${name} Events`,
  (name: string) => `${name} Society`,
  (name: string) => `Friends of ${name}`,
  (name: string) => `${name} & Co.`,
  (name: string) => `${name} Arts Foundation`,
] as const;

export const ORGANIZER_NAME_WORDS = [
  'Loopback', 'Open Stage', 'Northern Lights', 'Blue Moon', 'Riverside', 'Saturday Club', 'Night Owl', 'Sunrise', 'Lantern',
  'Good Company', 'Second Floor', 'Common Ground', 'Paper Plane', 'Red Door', 'Wild Garden', 'Brass Band', 'Quiet Room', 'Long Table',
] as const;

/** The category tree: ten roots with four children each, and the words their events' titles use. */
export interface CategorySpec {
  name: string;
  description: string;
  children: readonly string[];
  /** Title words for events filed here: `[adjective-ish, noun-ish]`. */
  titleHeads: readonly string[];
  titleTails: readonly string[];
}

export const CATEGORY_TREE: readonly CategorySpec[] = [
  {
    name: 'Concerts', description: 'Live music of every kind', children: ['Jazz', 'Rock', 'Classical', 'Electronic'],
    titleHeads: ['Late', 'Acoustic', 'Summer', 'Midnight', 'Unplugged', 'Big Band', 'Chamber', 'Sunday'],
    titleTails: ['Jazz Night', 'Sessions', 'Live', 'Concert', 'Quartet', 'Showcase', 'Orchestra Evening', 'DJ Set'],
  },
  {
    name: 'Theatre', description: 'Plays, improvisation and readings', children: ['Comedy', 'Drama', 'Musicals', 'Improv'],
    titleHeads: ['Opening Night:', 'Matinee:', 'Premiere:', 'Encore:', 'Revival:', 'Workshop Reading:'],
    titleTails: ['The Tempest', 'A Doll’s House', 'Waiting for Godot', 'Stand-up Hour', 'Improv Jam', 'Our Town', 'The Seagull', 'Cabaret'],
  },
  {
    name: 'Workshops', description: 'Hands-on sessions in small groups', children: ['Crafts', 'Cooking', 'Photography', 'Coding'],
    titleHeads: ['Beginner', 'Intermediate', 'Weekend', 'Evening', 'Hands-on', 'Masterclass:'],
    titleTails: ['Pottery', 'Bread Baking', 'Street Photography', 'Python Basics', 'Watercolour', 'Knife Skills', 'Screen Printing', 'Web Accessibility'],
  },
  {
    name: 'Talks', description: 'Lectures and conversations', children: ['Science', 'History', 'Business', 'Literature'],
    titleHeads: ['Lunchtime Talk:', 'In Conversation:', 'Keynote:', 'Panel:', 'Lecture:', 'Fireside Chat:'],
    titleTails: ['The Future of Cities', 'Black Holes Explained', 'Founders Stories', 'Forgotten Empires', 'Writing Memoir', 'Climate and Us', 'Ancient Maps', 'Small Business Growth'],
  },
  {
    name: 'Festivals', description: 'Several days, several stages', children: ['Music Festivals', 'Film Festivals', 'Food Festivals', 'Street Fairs'],
    titleHeads: ['Spring', 'Summer', 'Autumn', 'Winter', 'Harbour', 'Riverside'],
    titleTails: ['Festival', 'Street Fair', 'Film Week', 'Food Market', 'Lantern Parade', 'Folk Weekend', 'Light Festival', 'Carnival'],
  },
  {
    name: 'Sports', description: 'Matches, races and classes', children: ['Running', 'Cycling', 'Yoga', 'Team Sports'],
    titleHeads: ['Morning', 'Community', 'Charity', 'Sunset', 'Weekend', 'Open'],
    titleTails: ['5K Run', 'Yoga in the Park', 'Cycling Tour', 'Five-a-side', 'Climbing Meetup', 'Swim Session', 'Tennis Open', 'Pilates Class'],
  },
  {
    name: 'Family', description: 'For all ages', children: ['Kids', 'Storytime', 'Outdoors', 'Museums'],
    titleHeads: ['Family', 'Kids’', 'Saturday', 'Holiday', 'Little Explorers', 'Rainy Day'],
    titleTails: ['Storytime', 'Science Fair', 'Puppet Show', 'Treasure Hunt', 'Nature Walk', 'Museum Trail', 'Craft Morning', 'Dinosaur Day'],
  },
  {
    name: 'Food & Drink', description: 'Tastings, dinners and markets', children: ['Wine', 'Beer', 'Coffee', 'Supper Clubs'],
    titleHeads: ['Natural', 'Regional', 'Seasonal', 'Late Harvest', 'Craft', 'Single Origin'],
    titleTails: ['Wine Tasting', 'Beer Flight', 'Coffee Cupping', 'Supper Club', 'Cheese Pairing', 'Whisky Evening', 'Tapas Night', 'Farmers Dinner'],
  },
  {
    name: 'Arts', description: 'Exhibitions, openings and studios', children: ['Exhibitions', 'Film', 'Dance', 'Poetry'],
    titleHeads: ['Gallery Opening:', 'Screening:', 'Open Studio:', 'Recital:', 'Retrospective:', 'Late View:'],
    titleTails: ['New Work', 'Light and Shadow', 'Silent Films with Live Piano', 'Contemporary Dance', 'Poetry Slam', 'Print Fair', 'Sculpture Garden', 'Portraits'],
  },
  {
    name: 'Community', description: 'Meetups, markets and volunteering', children: ['Meetups', 'Volunteering', 'Markets', 'Networking'],
    titleHeads: ['Monthly', 'Neighbourhood', 'Open', 'Evening', 'Community', 'Quarterly'],
    titleTails: ['Meetup', 'Repair Café', 'Flea Market', 'Clean-up Day', 'Language Exchange', 'Board Game Night', 'Networking Breakfast', 'Book Swap'],
  },
];

/** Tag names are two-word combinations, taken in a fixed order until there are enough. */
export const TAG_FIRST_WORDS = [
  'family', 'outdoor', 'indoor', 'free', 'accessible', 'late-night', 'beginner', 'advanced', 'all-ages', 'adults-only', 'weekend',
  'weekday', 'evening', 'morning', 'seasonal', 'local', 'international', 'live', 'online', 'hybrid',
] as const;

export const TAG_SECOND_WORDS = [
  '', 'music', 'food', 'art', 'sport', 'talk', 'market', 'film', 'dance', 'theatre', 'kids', 'tech', 'books', 'nature', 'charity',
] as const;

export const TICKET_NAMES = {
  tc: ['General Admission', 'Early Bird', 'VIP', 'Student', 'Balcony', 'Standing', 'Front Row', 'Day Pass', 'Weekend Pass'],
  rsvp: ['Free RSVP', 'Guest List', 'Reservation', 'Members', 'Walk-in Registration'],
} as const;

export const TICKET_PRICES = ['5.00', '10.00', '12.50', '15.00', '20.00', '25.00', '30.00', '35.00', '45.00', '60.00', '75.00', '120.00'] as const;

/** Paragraphs of event descriptions, already in the form the rich-text sanitiser stores. */
export const DESCRIPTION_PARAGRAPHS = [
  'Join us for an evening that brings together neighbours, newcomers and old friends.',
  'Doors open thirty minutes before the start. Seating is first come, first served.',
  'The programme runs about two hours with a short interval; drinks are available at the bar.',
  'This event is wheelchair accessible. Please tell us in advance if you need anything else to take part.',
  'Bring a friend: the second ticket is half price when booked together at the door.',
  'All materials are provided. Wear clothes you do not mind getting a little messy.',
  'Our hosts have run this series for years and love welcoming first-timers.',
  'Photographs will be taken during the event and may appear on our social media.',
  'Families are welcome; children under twelve must be accompanied by an adult.',
  'Please arrive on time: latecomers are admitted at a suitable break in the programme.',
  'Public transport stops right outside, and bicycle parking is available in the courtyard.',
  'Refunds are available up to forty-eight hours before the event.',
] as const;

export const EXCERPTS = [
  'An evening not to miss.',
  'Limited places: book early.',
  'Free for members.',
  'Back by popular demand.',
  'A new date in our series.',
] as const;

export const COST_TEXTS = ['Free', '10', '15', '20', '25', '5 - 15', '10 – 30', '$12', '8€', 'Donation', '35', '0'] as const;
