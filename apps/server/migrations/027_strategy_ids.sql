-- Issue 19: the server's numbers for strategy bots (the engine keys each bot's orders by it).
create sequence strategy_ids start with 1001;
