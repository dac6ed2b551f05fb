// The shapes the voice pages show, read from the service's own OpenAPI document (schema.gen.ts):
// an operation's answer, never a hand-written copy (issue 28, point 7).
import type { operations } from '../../api/schema.gen.ts';

type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : never;
type Responses<O extends keyof operations> = operations[O]['responses'];
/** The JSON body of an operation's 200 (else 201) answer. */
export type Answer<O extends keyof operations> =
  Responses<O> extends { 200: infer R } ? JsonOf<R> : Responses<O> extends { 201: infer R } ? JsonOf<R> : never;
type Item<L> = L extends { data: (infer T)[] } ? T : never;

export type CloudPbx = Answer<'getCloudPbx'>['data'];
export type Ddi = Item<Answer<'listDdis'>>;
export type Subscriber = Item<Answer<'listSubscribers'>>;
export type Device = Item<Answer<'listDevices'>>;
export type Registration = Item<Answer<'listDeviceRegistrations'>>;
export type DeviceModel = Item<Answer<'listDeviceModels'>>;
export type KeysAnswer = Answer<'listProgrammableKeys'>['data'];
export type ProgrammableKey = KeysAnswer['keys'][number];
export type Group = Item<Answer<'listGroups'>>;
export type GroupForward = Answer<'getGroupForwards'>['data']['groupForwards'][number];
export type Greeting = Answer<'listGreetings'>['data']['greetings'][number];
export type Recording = Item<Answer<'listRecordings'>>;
export type Welcome = Item<Answer<'listWelcomes'>>;
export type WelcomeService = Item<Answer<'listWelcomeServices'>>;
export type OfficeHours = Answer<'getOfficeHours'>['data']['officehours'];
export type OfficeException = OfficeHours['exceptions'][number];
export type Language = NonNullable<CloudPbx['cloudpbx']>['language'];
