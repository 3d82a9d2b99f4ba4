import type { ReactNode } from 'react';

export function PageHeader({
  title,
  description,
  badge,
  actions,
}: {
  title: string;
  description?: ReactNode;
  badge?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <header className="bo-pagehead">
      <div className="bo-pagehead-text">
        <div className="bo-pagehead-title">
          <h1>{title}</h1>
          {badge}
        </div>
        {description ? <p>{description}</p> : null}
      </div>
      {actions ? <div className="bo-pagehead-actions">{actions}</div> : null}
    </header>
  );
}
