import { useMutation } from "@tanstack/react-query";
import type { PowerUpTestAnswer, PowerUpTestRequest } from "@shared/contracts/power-ups.ts";
import { callFunction } from "../../lib/functions";

export function testPowerUp(body: PowerUpTestRequest): Promise<PowerUpTestAnswer> {
  return callFunction<PowerUpTestAnswer>("power-ups/test", body);
}

export function usePowerUpTestMutation() {
  return useMutation({ mutationFn: testPowerUp });
}
