#!/bin/sh
# mailroom testdata: a script that implements nothing; every op exits 2.
exit 2
