from tjb_lib.cli import main

raise SystemExit(main())
