#!/usr/bin/perl
# Interop client of the typed v2 contract in Perl: SOAP::Lite builds its stub from the served v2 ?wsdl
# (SOAP::Lite->service) and makes the calls listed in a file, one per line (the operation, then its
# arguments in the WSDL's order, tab-separated, each percent-encoded, "~" for none: sent empty, which
# the contract reads as not given), over SOAP 1.1. SOAP::Lite gives the results as plain Perl data
# (its WSDL stubs carry no types): they are printed as they came, one JSON object per line, and a
# fault's code and ServiceError from its detail.
#
# usage: perl soaplite_v2_client.pl <endpoint> <calls-file>
use strict;
use warnings;
use Encode qw(decode);
use JSON::PP;
use SOAP::Lite;

my ($endpoint, $calls) = @ARGV;
my $json = JSON::PP->new->allow_nonref;
my $fault;
my $service = SOAP::Lite->service("$endpoint?wsdl")->on_fault(sub { my ($soap, $result) = @_; $fault = $result; return undef; });

open(my $in, '<', $calls) or die "cannot read $calls: $!";
while (my $line = <$in>) {
  chomp $line;
  my ($operation, @args) = split /\t/, $line, -1;
  @args = map { $_ eq '~' ? '' : decode('UTF-8', do { (my $v = $_) =~ s/%([0-9A-Fa-f]{2})/chr(hex($1))/eg; $v }) } @args;
  undef $fault;
  my $result = $service->$operation(@args);
  if (ref $fault) {
    print $json->encode({ operation => $operation, ok => JSON::PP::false, fault => { code => $fault->faultcode, detail => $fault->faultdetail->{ServiceError} } }), "\n";
  } else {
    print $json->encode({ operation => $operation, ok => JSON::PP::true, result => $result }), "\n";
  }
}
