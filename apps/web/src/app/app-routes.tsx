import { TEST_CHECKOUT_PATH } from '@flashbulb/shared';
import { Route, Routes } from 'react-router';
import { ConfirmForgotPasswordPage } from '../features/identity/auth/components/confirm-forgot-password-page.tsx';
import { ForgotPasswordPage } from '../features/identity/auth/components/forgot-password-page.tsx';
import { VerifyFromAddressPage } from '../features/messaging/from-address/components/verify-from-address-page.tsx';
import { TestCheckoutPage } from '../features/payments/test-checkout/components/test-checkout-page.tsx';
import { SessionGate } from './session-gate.tsx';

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/forgot-password" element={<ForgotPasswordPage />} />
      <Route path="/forgot-password/confirm" element={<ConfirmForgotPasswordPage />} />
      <Route path="/verify-from-address" element={<VerifyFromAddressPage />} />
      <Route path={`${TEST_CHECKOUT_PATH}/:paymentId`} element={<TestCheckoutPage />} />
      <Route path="*" element={<SessionGate />} />
    </Routes>
  );
}
