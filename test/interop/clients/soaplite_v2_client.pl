#!/usr/bin/perl
# Interop client of the typed v2 contract in Perl: SOAP::Lite builds its stub from the served v2 ?wsdl
# (SOAP::Lite->service) and calls a few operations over SOAP 1.1, its arguments in the WSDL's order.
# SOAP::Lite gives the results as plain Perl data (its WSDL stubs carry no types): they are printed as
# they came, one JSON object per line, and the fault's ServiceError from its detail.
#
# usage: perl soaplite_v2_client.pl <endpoint> <SalesOfficer> <PDCID> <PCNNO>
use strict;
use warnings;
use JSON::PP;
use SOAP::Lite;

my ($endpoint, $officer, $pdc_id, $pcn_no) = @ARGV;
my $json = JSON::PP->new->canonical(0)->allow_nonref;
my $fault;
my $service = SOAP::Lite->service("$endpoint?wsdl")->on_fault(sub { my ($soap, $result) = @_; $fault = $result; return $result; });

sub answer {
  my ($operation, $result) = @_;
  print $json->encode({ operation => $operation, ok => JSON::PP::true, result => $result }), "\n";
}

# getPCNList(SalesOfficer, Customer, PaymentType, PaymentMethod, PageSize, PageToken): empty is "not given".
answer('getPCNList', $service->getPCNList($officer, '', '', '', '3', ''));
answer('getPCNDetails', $service->getPCNDetails($pdc_id));
answer('getPCNInvoices', $service->getPCNInvoices($pcn_no));
$service->getOpeningBalance('', '13', '');
my $error = ref $fault ? $fault->faultdetail->{ServiceError} : undef;
print $json->encode({ operation => 'getOpeningBalance', ok => JSON::PP::false, fault => { code => ref $fault ? $fault->faultcode : undef, detail => $error } }), "\n";
