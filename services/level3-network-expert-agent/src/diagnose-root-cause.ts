import type { EscalationData, Immutable } from '@baton/protocol';

/** What the level-3 experts found, and the one effect that remedies it. */
export interface Diagnosis {
  rootCause: string;
  effect: 'push_firmware_update' | 'schedule_field_visit';
  args: Record<string, string>;
  /** What the customer is told. */
  reply: string;
}

interface FirmwareDefect {
  model: string;
  defect: string;
  fixedIn: string;
}

// Router firmware known to drop connections, and the release that fixes it.
const FIRMWARE_DEFECTS: readonly FirmwareDefect[] = [
  {
    model: 'RouterX-Pro',
    defect: 'a DHCP lease-renewal defect in its firmware, which drops the connection about once an hour',
    fixedIn: '4.2.1',
  },
];

/**
 * The root cause of a network fault that tier 2 could not resolve, from its technical details:
 * a router model with a known firmware defect gets the fixed firmware pushed to it; otherwise the
 * router is not to blame, and a fault that survived tier 2's remote diagnostic is on the physical
 * line, so a technician visits, arranged with the customer's ISP when it is known.
 */
export function diagnoseRootCause(data: Immutable<EscalationData>): Diagnosis {
  const { router_model: routerModel, isp } = data.technical_details;
  const userId = data.customer_info.user_id;
  const firmware = FIRMWARE_DEFECTS.find((known) => known.model.toLowerCase() === routerModel?.toLowerCase());
  if (firmware !== undefined) {
    return {
      rootCause: `${firmware.model} router: ${firmware.defect}`,
      effect: 'push_firmware_update',
      args: { user_id: userId, router_model: firmware.model, firmware_version: firmware.fixedIn },
      reply: `We found the cause of your connection problem: your ${firmware.model} router has ${firmware.defect}. We are installing firmware ${firmware.fixedIn} on it remotely; it restarts once by itself and the drops stop.`,
    };
  }
  const line = isp === undefined ? 'the line' : `the ${isp} line`;
  return {
    rootCause: `a fault on ${line} into the premises`,
    effect: 'schedule_field_visit',
    args: { user_id: userId, ...(isp === undefined ? {} : { isp }) },
    reply: `We found the cause of your connection problem: a fault on ${line} into your home. A technician will visit to repair it; we will call you to agree a time.`,
  };
}
