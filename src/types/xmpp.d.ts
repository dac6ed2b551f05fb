// The parts of xmpp.js (@xmpp/*) this service uses; the packages ship no type declarations.
declare module '@xmpp/xml' {
  export class Element {
    name: string;
    attrs: Record<string, string | undefined>;
    children: Array<Element | string>;
    parent: Element | null;
    constructor(name: string, attrs?: Record<string, unknown>);
    is(name: string, xmlns?: string): boolean;
    getChild(name: string, xmlns?: string): Element | undefined;
    getChildren(name: string, xmlns?: string): Element[];
    getChildElements(): Element[];
    getChildText(name: string, xmlns?: string): string | null;
    getText(): string;
    attr(name: string): string | undefined;
    attr(name: string, value: unknown): Element;
    append(...children: Array<Element | string>): Element;
    toString(): string;
  }
  export type XmlChild = Element | string | number | boolean | null | undefined | XmlChild[];
  interface Xml {
    (name: string, attrs?: Record<string, unknown> | null, ...children: XmlChild[]): Element;
    Element: typeof Element;
  }
  const xml: Xml;
  export { xml };
  export default xml;
}

declare module '@xmpp/xml/lib/parse.js' {
  import type { Element } from '@xmpp/xml';
  export default function parse(data: string): Element;
}

declare module '@xmpp/component' {
  import type { Element } from '@xmpp/xml';
  import type { EventEmitter } from 'node:events';
  export interface Component extends EventEmitter {
    status: string;
    start(): Promise<unknown>;
    stop(): Promise<unknown>;
    send(el: Element): Promise<void>;
    reconnect: EventEmitter & { delay: number; stop(): void; start(): void };
    iqCaller: { request(el: Element, timeout?: number): Promise<Element> };
  }
  export function component(opts: { service: string; domain: string; password: string }): Component;
}

declare module '@xmpp/client' {
  import type { Element } from '@xmpp/xml';
  import type { EventEmitter } from 'node:events';
  export interface Client extends EventEmitter {
    status: string;
    start(): Promise<unknown>;
    stop(): Promise<unknown>;
    send(el: Element): Promise<void>;
    reconnect: EventEmitter & { delay: number; stop(): void };
    iqCaller: { request(el: Element, timeout?: number): Promise<Element> };
    iqCallee: {
      set(ns: string, name: string, handler: (ctx: unknown) => unknown): void;
      get(ns: string, name: string, handler: (ctx: unknown) => unknown): void;
    };
  }
  export function client(opts: {
    service: string;
    domain: string;
    username: string;
    password: string;
    resource?: string;
  }): Client;
  export function xml(name: string, attrs?: Record<string, unknown> | null, ...children: unknown[]): Element;
}
