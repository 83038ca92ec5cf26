import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export function useChangeOwnPassword() {
  return useMutation({
    mutationFn: (body: { currentPassword: string; newPassword: string }) =>
      api.put<void>('/auth/password', body),
  });
}
