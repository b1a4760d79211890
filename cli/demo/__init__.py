"""The rendering of ``deskcheck demo`` (the steps themselves are in ``deskcheck.samples.demo``)."""
