import { Component, type ReactNode } from 'react';
import { ErrorFallback } from './ErrorFallback';

/** Shows the fallback page when the error page itself fails (spec 2.5 and 8). */
export class ErrorPageGuard extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? <ErrorFallback /> : this.props.children;
  }
}
