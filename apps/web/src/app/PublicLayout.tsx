import { Outlet, useMatches } from 'react-router';
import { Footer } from '../components/Footer';
import { Header } from '../components/Header';

export function PublicLayout() {
  const matches = useMatches();
  const nav = [...matches]
    .reverse()
    .map((m) => (m.handle as { nav?: number } | undefined)?.nav)
    .find((n) => n !== undefined);
  const isHome = nav === 0;
  return (
    <div className="page">
      <Header background={isHome ? 'transparent' : 'solid'} navVisible activeIndex={nav ?? -1} />
      <main className="page-main" id="main">
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
