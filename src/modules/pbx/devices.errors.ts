// Errors of the hosted PBX: (SIP devices, programmable keys), n = 830-839 of the pbx module's 800..849.
import type { ErrorEntry } from '../../errors/catalogue.ts';

export const deviceErrors = {
  DEVICE_TYPE_UNKNOWN: {
    status: 400,
    code: 400830,
    message: 'Bad Request: deviceTypeId is not the id of a device model (GET C/devicemodels)',
  },
  DEVICE_MAC_REQUIRED: {
    status: 400,
    code: 400831,
    message: 'Bad Request: macAddress is mandatory for a desk phone (any model but the generic SIP model 999999)',
  },
  DEVICE_MAC_INVALID: {
    status: 400,
    code: 400832,
    message: "Bad Request: macAddress must be 12 hexadecimal digits, grouped or not by ':', '-' or '.'",
  },
  DEVICE_MAC_TAKEN: {
    status: 409,
    code: 409830,
    message: 'Conflict: a SIP device with this macAddress already exists (a MAC address is unique on the platform)',
  },
  DEVICE_ASSIGNED: {
    status: 409,
    code: 409831,
    message: 'Conflict: the SIP device is assigned to a subscriber (unassign it first)',
  },
  DEVICE_DEBUG_DURATION_FORBIDDEN: {
    status: 403,
    code: 403830,
    message: 'Forbidden: only a superadmin may give a debug session a duration other than the default (1800 s)',
  },
  DEVICE_REGISTRAR_FAILED: {
    status: 502,
    code: 502830,
    message: "Bad Gateway: the SIP registrar refused or did not answer; the device's change was not made",
  },
  KEY_NUM_OUT_OF_RANGE: {
    status: 400,
    code: 400833,
    message: "Bad Request: keyNum must be between 1 and the device model's number of programmable keys",
  },
  KEY_DESTINATION_INVALID: {
    status: 400,
    code: 400834,
    message:
      'Bad Request: a speeddial key needs a number or a phoneNumberId, a monitor key the phoneNumberId of a subscriber',
  },
  KEY_DESTINATION_UNKNOWN: {
    status: 400,
    code: 400835,
    message: 'Bad Request: phoneNumberId is not a subscriber of this CloudPBX',
  },
  KEY_NUM_TAKEN: {
    status: 409,
    code: 409832,
    message: 'Conflict: the device already has a programmable key of this keyNum',
  },
  KEY_NOT_ADMIN: {
    status: 409,
    code: 409833,
    message: 'Conflict: only keys created through the create-key operation (keyOwner admin) can be deleted',
  },
} as const satisfies Record<string, ErrorEntry>;

declare module '../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof deviceErrors, true> {}
}
