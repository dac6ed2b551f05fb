// The kinds of bulk import the console offers (issue 28, point 5; document 3, Bulk import): users,
// users with their devices, and the voice mode of a company's CloudPBX. Each kind names the
// template's mode and the routes that check and import it (route table, Bulk import).

export type ImportKind = 'users' | 'useranddevice' | 'voice';

export interface KindInfo {
  label: string;
  /** The template's `mode` (getCsvTemplate). */
  templateMode: 'user' | 'useranddevice' | 'voice';
  description: string;
}

export const KINDS: Record<ImportKind, KindInfo> = {
  users: {
    label: 'Users',
    templateMode: 'user',
    description: 'Creates, updates or deletes the users of the company, one per line.',
  },
  useranddevice: {
    label: 'Users and devices',
    templateMode: 'useranddevice',
    description: "Users with their telephone system's extension and desk phone (MAC address).",
  },
  voice: {
    label: 'Voice (CloudPBX)',
    templateMode: 'voice',
    description: "The company's CloudPBX subscribers, DDI numbers and SIP devices.",
  },
};

export const isKind = (v: string | null): v is ImportKind => v === 'users' || v === 'useranddevice' || v === 'voice';

/**
 * Synchronising (document 3: `sync` takes empty cells into account, `upsert` ignores them) is
 * offered for users and devices; the voice routes have no synchronise variant.
 */
export const canSync = (k: ImportKind) => k !== 'voice';
