import { CreateUsers1764000000000 } from './1764000000000-CreateUsers';
import { CreateEventsNamespace1764100000000 } from './1764100000000-CreateEventsNamespace';
import { CreateTicketsNamespace1764200000000 } from './1764200000000-CreateTicketsNamespace';
import { AddEventAttendeeListFlag1764300000000 } from './1764300000000-AddEventAttendeeListFlag';
import { CreateCountGenerations1764400000000 } from './1764400000000-CreateCountGenerations';
import { ListIndexes1764500000000 } from './1764500000000-ListIndexes';
import { StoredTermCounts1764600000000 } from './1764600000000-StoredTermCounts';
import { EventSearchIndex1764700000000 } from './1764700000000-EventSearchIndex';
import { EventListings1764830000000 } from './1764830000000-EventListings';
import { CategoryTreeListings1765090000000 } from './1765090000000-CategoryTreeListings';
import { EventListingPairs1765100000000 } from './1765100000000-EventListingPairs';
import { CompressedEventDocuments1765110000000 } from './1765110000000-CompressedEventDocuments';
import { MoneyInMinorUnits1765120000000 } from './1765120000000-MoneyInMinorUnits';
import { CheckinAnnulments1765130000000 } from './1765130000000-CheckinAnnulments';
import { WalkInSales1765140000000 } from './1765140000000-WalkInSales';
import { WaitingRooms1766200000000 } from './1766200000000-WaitingRooms';
import { QueueTuning1766250000000 } from './1766250000000-QueueTuning';
import { ApiTokens1766300000000 } from './1766300000000-ApiTokens';
import { ExportJobTokens1766300000001 } from './1766300000001-ExportJobTokens';
import { EventListingDays1764830000001 } from './1764830000001-EventListingDays';
import { TicketCapacityCounters1764850000000 } from './1764850000000-TicketCapacityCounters';
import { CreateOutbox1764870000000 } from './1764870000000-CreateOutbox';
import { CreateEventSeries1764880000000 } from './1764880000000-CreateEventSeries';
import { TicketStockCountScope1764895000000 } from './1764895000000-TicketStockCountScope';
import { EventDocumentVersions1764910000000 } from './1764910000000-EventDocumentVersions';
import { StripedCountGenerations1764920000000 } from './1764920000000-StripedCountGenerations';
import { AttendeeTallies1764930000000 } from './1764930000000-AttendeeTallies';
import { CheckinDoor1765000000000 } from './1765000000000-CheckinDoor';
import { CreateCoupons1765010000000 } from './1765010000000-CreateCoupons';
import { AttendeeInformationFields1765010000001 } from './1765010000001-AttendeeInformationFields';
import { CreatePayments1765020000000 } from './1765020000000-CreatePayments';
import { Waitlist1765030000000 } from './1765030000000-Waitlist';
import { CreateExportJobs1765040000000 } from './1765040000000-CreateExportJobs';
import { SalesLedger1765040000001 } from './1765040000001-SalesLedger';
import { StoredEventDocuments1765050000000 } from './1765050000000-StoredEventDocuments';
import { CouponSales1765060000000 } from './1765060000000-CouponSales';
import { EventDocumentListItems1765070000000 } from './1765070000000-EventDocumentListItems';
import { EventDocumentTicketed1765080000000 } from './1765080000000-EventDocumentTicketed';

/** Every migration, oldest first. A new migration is added here as well as in its own file. */
export const MIGRATIONS = [
  CreateUsers1764000000000,
  CreateEventsNamespace1764100000000,
  CreateTicketsNamespace1764200000000,
  AddEventAttendeeListFlag1764300000000,
  CreateCountGenerations1764400000000,
  ListIndexes1764500000000,
  StoredTermCounts1764600000000,
  EventSearchIndex1764700000000,
  EventListings1764830000000,
  EventListingDays1764830000001,
  TicketCapacityCounters1764850000000,
  CreateOutbox1764870000000,
  CreateEventSeries1764880000000,
  TicketStockCountScope1764895000000,
  EventDocumentVersions1764910000000,
  StripedCountGenerations1764920000000,
  AttendeeTallies1764930000000,
  CheckinDoor1765000000000,
  CreateCoupons1765010000000,
  AttendeeInformationFields1765010000001,
  CreatePayments1765020000000,
  Waitlist1765030000000,
  CreateExportJobs1765040000000,
  SalesLedger1765040000001,
  StoredEventDocuments1765050000000,
  CouponSales1765060000000,
  EventDocumentListItems1765070000000,
  EventDocumentTicketed1765080000000,
  CategoryTreeListings1765090000000,
  EventListingPairs1765100000000,
  CompressedEventDocuments1765110000000,
  MoneyInMinorUnits1765120000000,
  CheckinAnnulments1765130000000,
  WalkInSales1765140000000,
  WaitingRooms1766200000000,
  QueueTuning1766250000000,
  ApiTokens1766300000000,
  ExportJobTokens1766300000001,
];
