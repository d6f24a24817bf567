#!/bin/sh
# mailroom testdata: exits 0 but prints something that is not JSON.
echo 'this is {not json'
