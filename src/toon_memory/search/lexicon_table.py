"""The lexicon's hand-written table (``search.lexicon`` reads it; see its docstring).

Invariant: one concept per line, ``en | es | pt | fr | de``, each cell one or
more single words (lemmas, accents kept) separated by spaces; after an edit,
regenerate ``lexicon_stems`` (a test checks that it is current). Data only.
"""

from __future__ import annotations

CONCEPTS = """
database | base datos | banco dados | base données | datenbank
data | datos | dados | données | daten
table | tabla | tabela | table | tabelle
column | columna | coluna | colonne | spalte
row | fila | linha | ligne | zeile
record | registro | registro | enregistrement | datensatz eintrag
field | campo | campo | champ | feld
query | consulta | consulta | requête | abfrage
index | índice | índice | index | index
schema | esquema | esquema | schéma | schema
migration | migración | migração | migration | migration
backup | copia respaldo | cópia | sauvegarde | sicherung
restore | restaurar | restaurar | restaurer | wiederherstellen
replica | réplica | réplica | réplique | replikat
partition | partición | partição | partition | partition
storage | almacenamiento | armazenamento | stockage | speicher
store | guardar almacenar | guardar armazenar | stocker enregistrer | speichern
save | guardar | salvar gravar | sauvegarder enregistrer | speichern
keep | conservar mantener guardar | manter guardar conservar | conserver garder | aufbewahren behalten
retention | retención conservación | retenção conservação | rétention conservation | aufbewahrung
delete | borrar eliminar | apagar excluir eliminar | supprimer effacer | löschen entfernen
remove | quitar eliminar | remover retirar | retirer enlever | entfernen
drop | borrar eliminar | apagar eliminar | supprimer | löschen
decrease drop reduce lower | bajar disminuir reducir | baixar diminuir reduzir | baisser diminuer réduire | sinken senken verringern reduzieren
deduplicate | deduplicar | deduplicar | dédupliquer | deduplizieren
insert | insertar | inserir | insérer | einfügen
update | actualizar actualización | atualizar atualização | mettre jour | aktualisieren
change | cambiar cambio | mudar mudança alterar | changer changement modifier | ändern änderung
read | leer lectura | ler leitura | lire lecture | lesen
write | escribir escritura | escrever escrita | écrire écriture | schreiben
load | cargar carga | carregar carga | charger charge | laden last
lock | bloqueo bloquear | bloqueio bloquear | verrou verrouiller | sperre sperren
transaction | transacción | transação | transaction | transaktion
connection | conexión | conexão | connexion | verbindung
pool | pool | pool | pool | pool
disk | disco | disco | disque | festplatte
memory | memoria | memória | mémoire | speicher arbeitsspeicher
size | tamaño | tamanho | taille | größe
limit | límite | limite | limite | grenze limit
quota | cuota | cota | quota | kontingent
file | archivo fichero | arquivo ficheiro | fichier | datei
folder | carpeta directorio | pasta diretório | dossier répertoire | ordner verzeichnis
bucket | cubo | balde | seau | bucket
duplicate | duplicado duplicar | duplicado duplicar | doublon dupliqué | duplikat doppelt
copy | copia copiar | cópia copiar | copie copier | kopie kopieren
order | orden pedido | ordem pedido | ordre commande | reihenfolge bestellung
sort | ordenar | ordenar | trier | sortieren
request | petición solicitud consulta | pedido requisição solicitação consulta | requête demande | anfrage abfrage
response | respuesta | resposta | réponse | antwort
answer | respuesta responder | resposta responder | réponse répondre | antwort antworten
endpoint | ruta | rota | route | route
route | ruta | rota | route | route
header | cabecera encabezado | cabeçalho | entête | header kopfzeile
body | cuerpo | corpo | corps | rumpf
token | token | token | jeton | token
session | sesión | sessão | session | sitzung
login | inicio sesión | início sessão | connexion | anmeldung
password | contraseña clave | senha palavra | mot passe | passwort kennwort
user | usuario | usuário utilizador | utilisateur | benutzer nutzer
account | cuenta | conta | compte | konto
permission | permiso | permissão | permission droit | berechtigung recht
role | rol | papel função | rôle | rolle
access | acceso | acesso | accès | zugang zugriff
authentication | autenticación | autenticação | authentification | authentifizierung
authenticate | autenticar | autenticar | authentifier | authentifizieren
authorization | autorización | autorização | autorisation | autorisierung
error | error fallo | erro falha | erreur | fehler
exception | excepción | exceção | exception | ausnahme
capture | capturar registrar | capturar registrar | capturer | erfassen
failure | fallo falla | falha | échec panne | ausfall fehlschlag
fail | fallar | falhar | échouer | fehlschlagen scheitern
bug | fallo error | erro falha | bogue erreur | fehler
fix | corregir arreglar solucionar | corrigir consertar | corriger réparer | beheben korrigieren
problem | problema | problema | problème | problem
cause | causa | causa | cause | ursache
reason | razón motivo | razão motivo | raison motif | grund
status | estado | estado | statut état | status zustand
state | estado | estado | état | zustand
timeout | tiempo espera | tempo limite | délai | zeitüberschreitung
retry | reintentar reintento | tentar | réessayer | wiederholen wiederholung
webhook | webhook | webhook | webhook | webhook
client | cliente | cliente | client | kunde client
customer | cliente | cliente | client | kunde
server | servidor | servidor | serveur | server
service | servicio | serviço | service | dienst
page | página | página | page | seite
form | formulario | formulário | formulaire | formular
button | botón | botão | bouton | schaltfläche knopf
link | enlace vínculo | ligação link | lien | verknüpfung link
address | dirección | endereço morada | adresse | adresse
search | búsqueda buscar | pesquisa procurar | recherche rechercher | suche suchen
find | encontrar buscar | encontrar | trouver | finden
filter | filtro filtrar | filtro filtrar | filtre filtrer | filter filtern
list | lista | lista | liste | liste
view | vista | vista visualização | vue | ansicht
screen | pantalla | tela ecrã | écran | bildschirm
deploy | desplegar despliegue | implantar implementar | déployer déploiement | bereitstellen bereitstellung
release | versión lanzamiento publicar | versão lançamento publicar | version publier | veröffentlichung freigabe
version | versión | versão | version | version
build | compilar construir | compilar construir | construire compiler | bauen build
image | imagen | imagem | image | abbild image
container | contenedor | contentor contêiner | conteneur | container
cluster | clúster | cluster | grappe cluster | cluster
node | nodo | nó | nœud | knoten
log | registro | registo log | journal | protokoll
logs | registros | registos | journaux | protokolle
logging | registro | registo | journalisation | protokollierung
monitoring | monitorización | monitorização | surveillance | überwachung
alert | alerta | alerta | alerte | alarm warnung
metric | métrica | métrica | métrique | metrik
trace | traza | rastro | trace | spur
incident | incidente incidencia | incidente | incident | vorfall störung
outage | caída | queda | panne | ausfall
restart | reiniciar reinicio | reiniciar | redémarrer | neustart neustarten
crash | caída fallo | falha | plantage | absturz
worker | trabajador | trabalhador | travailleur | arbeiter
job | trabajo tarea | trabalho tarefa | tâche travail | auftrag
task | tarea | tarefa | tâche | aufgabe
queue | cola | fila | file queue | warteschlange
schedule | programar calendario horario | agendar horário | planifier planning horaire | zeitplan planen
scheduled | programado | agendado | planifié | geplant
nightly | nocturno | noturno | nocturne | nächtlich
night | noche | noite | nuit | nacht
daily | diario | diário | quotidien | täglich
weekly | semanal | semanal | hebdomadaire | wöchentlich
monthly | mensual | mensal | mensuel | monatlich
environment | entorno | ambiente | environnement | umgebung
production | producción | produção | production | produktion
test | prueba | teste | test essai | test
tests | pruebas | testes | tests | tests
testing | pruebas | testes | tests | testen
check | comprobar verificar | verificar | vérifier | prüfen
validation | validación | validação | validation | validierung
validate | validar | validar | valider | validieren
config | configuración | configuração | configuration | konfiguration
configuration | configuración | configuração | configuration | konfiguration
setting | ajuste configuración | definição configuração | paramètre réglage | einstellung
variable | variable | variável | variable | variable
secret | secreto | segredo | secret | geheimnis
key | clave llave | chave | clé | schlüssel
certificate | certificado | certificado | certificat | zertifikat
encryption | cifrado | criptografia cifragem | chiffrement | verschlüsselung
encrypted | cifrado | criptografado cifrado | chiffré | verschlüsselt
network | red | rede | réseau | netzwerk
latency | latencia | latência | latence | latenz
performance | rendimiento | desempenho performance | performance | leistung
slow | lento | lento | lent | langsam
fast | rápido | rápido | rapide | schnell
speed | velocidad | velocidade | vitesse | geschwindigkeit
code | código | código | code | code
source | fuente | fonte | source | quelle
comment | comentario | comentário | commentaire | kommentar
name | nombre | nome | nom | name
naming | nomenclatura | nomenclatura | nommage | benennung
convention | convención | convenção | convention | konvention
rule | regla | regra | règle | regel
policy | política | política | politique | richtlinie
guideline | pauta directriz | diretriz | directive | richtlinie
standard | estándar | padrão | norme | standard
documentation | documentación | documentação | documentation | dokumentation
language | idioma lenguaje | idioma língua linguagem | langue langage | sprache
translation | traducción | tradução | traduction | übersetzung
translate | traducir | traduzir | traduire | übersetzen
team | equipo | equipa equipe | équipe | team
owner | responsable dueño propietario | responsável dono | responsable propriétaire | verantwortlich besitzer
responsible | responsable | responsável | responsable | verantwortlich zuständig
lead | líder responsable | líder responsável | responsable chef | leiter
meeting | reunión | reunião | réunion | besprechung meeting
review | revisión revisar | revisão revisar | revue relecture relire | überprüfung prüfung
approval | aprobación | aprovação | approbation validation | genehmigung freigabe
decision | decisión | decisão | décision | entscheidung
support | soporte apoyo | suporte apoio | support assistance | support unterstützung
ticket | ticket incidencia | ticket pedido | ticket | ticket
contract | contrato | contrato | contrat | vertrag
invoice | factura | fatura | facture | rechnung
invoices | facturas | faturas | factures | rechnungen
billing | facturación | faturação faturamento | facturation | abrechnung
payment | pago | pagamento | paiement | zahlung
price | precio | preço | prix | preis
cost | coste costo | custo | coût | kosten
tax | impuesto | imposto | impôt taxe | steuer
vat | iva | iva | tva | mwst mehrwertsteuer
budget | presupuesto | orçamento | budget | budget
report | informe reporte | relatório | rapport | bericht
export | exportación exportar | exportação exportar | export exporter | export exportieren
import | importación importar | importação importar | import importer | import importieren
order | pedido | encomenda pedido | commande | bestellung auftrag
product | producto | produto | produit | produkt
delivery | entrega | entrega | livraison | lieferung zustellung
message | mensaje | mensagem | message | nachricht
notification | notificación | notificação | notification | benachrichtigung
email | correo | email | courriel | mail
phone | teléfono | telefone | téléphone | telefon
number | número | número | numéro nombre | nummer zahl
date | fecha | data | date | datum
time | tiempo hora | tempo hora | temps heure | zeit
hour | hora | hora | heure | stunde
outside | fuera | fora | dehors hors | außerhalb
minute | minuto | minuto | minute | minute
second | segundo | segundo | seconde | sekunde
day | día | dia | jour | tag
week | semana | semana | semaine | woche
month | mes | mês | mois | monat
year | año | ano | année | jahr
timezone | zona horaria | fuso horário | fuseau horaire | zeitzone
morning | mañana | manhã | matin | morgen
weekend | fin semana | fim semana | weekend | wochenende
monday | lunes | segunda | lundi | montag
friday | viernes | sexta | vendredi | freitag
tuesday | martes | terça | mardi | dienstag
wednesday | miércoles | quarta | mercredi | mittwoch
thursday | jueves | quinta | jeudi | donnerstag
saturday | sábado | sábado | samedi | samstag
sunday | domingo | domingo | dimanche | sonntag
spain | españa | espanha | espagne | spanien
germany | alemania | alemanha | allemagne | deutschland
france | francia | frança | france | frankreich
italy | italia | itália | italie | italien
switzerland | suiza | suíça | suisse | schweiz
netherlands | países bajos holanda | países baixos holanda | pays-bas | niederlande
belgium | bélgica | bélgica | belgique | belgien
austria | austria | áustria | autriche | österreich
china | china | china | chine | china
lisbon | lisboa | lisboa | lisbonne | lissabon
seville | sevilla | sevilha | séville | sevilla
munich | múnich | munique | munich | münchen
cologne | colonia | colónia | cologne | köln
geneva | ginebra | genebra | genève | genf
london | londres | londres | londres | london
brussels | bruselas | bruxelas | bruxelles | brüssel
vienna | viena | viena | vienne | wien
milan | milán | milão | milan | mailand
english | inglés | inglês | anglais | englisch
spanish | español castellano | espanhol | espagnol | spanisch
portuguese | portugués | português | portugais | portugiesisch
french | francés | francês | français | französisch
german | alemán | alemão | allemand | deutsch
italian | italiano | italiano | italien | italienisch
old | viejo antiguo | velho antigo | vieux ancien | alt
new | nuevo | novo | nouveau | neu
first | primero | primeiro | premier | erste
last | último | último | dernier | letzte
every | cada | cada | chaque | jede
never | nunca jamás | nunca jamais | jamais | nie niemals
always | siempre | sempre | toujours | immer
must | deber | dever | devoir | müssen
allowed | permitido | permitido | autorisé permis | erlaubt
allow | permitir | permitir | permettre autoriser | erlauben
forbidden | prohibido | proibido | interdit | verboten
required | obligatorio requerido | obrigatório | obligatoire requis | erforderlich pflicht
mandatory | obligatorio | obrigatório | obligatoire | verpflichtend pflicht
optional | opcional | opcional | facultatif optionnel | optional
default | predeterminado defecto | padrão predefinido | défaut | standard voreinstellung
maximum | máximo | máximo | maximum | maximal höchstens
minimum | mínimo | mínimo | minimum | mindestens minimal
missing | falta faltante | falta ausente | manquant | fehlend
broken | roto | quebrado | cassé | kaputt defekt
wrong | incorrecto | errado incorreto | incorrect faux | falsch
correct | correcto | correto | correct | korrekt richtig
safe | seguro | seguro | sûr | sicher
security | seguridad | segurança | sécurité | sicherheit
privacy | privacidad | privacidade | confidentialité | datenschutz
personal | personal | pessoal | personnel | persönlich
plan | plan | plano | plan | plan
planning | planificación | planejamento planeamento | planification | planung
roadmap | hoja ruta | roteiro | feuille route | fahrplan roadmap
goal | objetivo meta | objetivo meta | objectif but | ziel
feature | funcionalidad característica | funcionalidade recurso | fonctionnalité | funktion
flag | bandera indicador | sinalizador | drapeau indicateur | flag schalter
option | opción | opção | option | option
project | proyecto | projeto | projet | projekt
repository | repositorio | repositório | dépôt | repository
branch | rama | ramo | branche | zweig
commit | confirmación | commit | commit | commit
merge | fusionar | mesclar | fusionner | zusammenführen
developer | desarrollador programador | desenvolvedor programador | développeur | entwickler
development | desarrollo | desenvolvimento | développement | entwicklung
architecture | arquitectura | arquitetura | architecture | architektur
design | diseño | design desenho | conception | entwurf design
module | módulo | módulo | module | modul
component | componente | componente | composant | komponente
library | biblioteca librería | biblioteca | bibliothèque | bibliothek
dependency | dependencia | dependência | dépendance | abhängigkeit
package | paquete | pacote | paquet | paket
tool | herramienta | ferramenta | outil | werkzeug
methodology | metodología | metodologia | méthodologie | methodik
process | proceso | processo | processus | prozess
step | paso | passo etapa | étape | schritt
stage | etapa fase | etapa fase | étape phase | phase stufe
upload | subir carga | carregar envio | téléverser | hochladen
download | descargar | baixar descarregar | télécharger | herunterladen
send | enviar | enviar | envoyer | senden schicken
receive | recibir | receber | recevoir | empfangen erhalten
wait | esperar | esperar | attendre | warten
start | iniciar empezar | iniciar começar | démarrer commencer | starten beginnen
stop | detener parar | parar | arrêter | stoppen anhalten
open | abrir | abrir | ouvrir | öffnen
close | cerrar | fechar | fermer | schließen
closed | cerrado | fechado | fermé | geschlossen
run | ejecutar correr | executar correr | exécuter lancer | ausführen laufen
install | instalar | instalar | installer | installieren
generate | generar | gerar | générer | erzeugen generieren
create | crear | criar | créer | erstellen anlegen
use | usar utilizar | usar utilizar | utiliser | verwenden benutzen nutzen
need | necesitar | precisar | besoin | brauchen benötigen
block | bloquear bloqueo | bloquear bloqueio | bloquer | sperren blockieren
throttle | limitar | limitar | limiter | drosseln
unsubscribe | darse baja cancelar | cancelar | désabonner | abmelden
consent | consentimiento | consentimento | consentement | einwilligung
opt | baja | cancelar | désinscription | abmeldung
sign | firmar | assinar | signer | signieren
signature | firma | assinatura | signature | signatur
document | documento | documento | document | dokument
print | imprimir | imprimir | imprimer | drucken
printer | impresora | impressora | imprimante | drucker
label | etiqueta | etiqueta rótulo | étiquette | etikett
font | fuente tipografía | fonte | police | schrift
color | color | cor | couleur | farbe
image | imagen | imagem | image | bild
country | país | país | pays | land
city | ciudad | cidade | ville | stadt
region | región | região | région | region
company | empresa | empresa | entreprise société | unternehmen firma
contact | contacto | contacto contato | contact | kontakt
manager | responsable gerente | gerente responsável | responsable gestionnaire | leiter manager
staff | personal empleados | pessoal funcionários | personnel | personal mitarbeiter
employee | empleado | funcionário | employé | mitarbeiter
agency | agencia | agência | agence | agentur
hours | horas horario | horas horário | heures horaires | stunden öffnungszeiten
open | abierto | aberto | ouvert | geöffnet
work | trabajo trabajar | trabalho trabalhar | travail travailler | arbeit arbeiten
note | nota | nota | note | notiz
warning | advertencia aviso | aviso | avertissement | warnung
history | historial | histórico | historique | verlauf historie
audit | auditoría | auditoria | audit | prüfung audit
compliance | cumplimiento | conformidade | conformité | konformität
anonymous | anónimo | anónimo | anonyme | anonym
hidden | oculto | oculto | caché | versteckt
visible | visible | visível | visible | sichtbar
public | público | público | public | öffentlich
private | privado | privado | privé | privat
internal | interno | interno | interne | intern
external | externo | externo | externe | extern
manual | manual | manual | manuel | manuell
automatic | automático | automático | automatique | automatisch
hand | mano | mão | main | hand
format | formato | formato | format | format
template | plantilla | modelo | modèle gabarit | vorlage
expire | caducar expirar vencer | expirar vencer | expirer | ablaufen verfallen
valid | válido vigente | válido | valide | gültig
cancel | cancelar anular | cancelar anular | annuler | stornieren abbrechen
refund | reembolso reembolsar devolver | reembolso reembolsar | rembourser remboursement | erstatten rückerstattung
charge | cargo cobro cobrar | cobrança cobrar | débit prélèvement | belastung abbuchung
reject | rechazar | rejeitar recusar | rejeter refuser | ablehnen
accept | aceptar admitir | aceitar | accepter | akzeptieren annehmen
provider | proveedor | fornecedor provedor | fournisseur prestataire | anbieter
text | texto | texto | texte | text
character | carácter caracteres | caractere caracteres | caractère caractères | zeichen
length | longitud | comprimento | longueur | länge
cache | caché | cache | cache | zwischenspeicher
late | tarde tardío | tarde atrasado | tard tardif | spät
early | temprano pronto | cedo | tôt | früh
after | después tras | depois após | après | nach danach
exceed | superar exceder sobrepasar | exceder ultrapassar | dépasser | überschreiten
temporary | temporal provisional | temporário provisório | temporaire provisoire | vorübergehend temporär
permanent | permanente | permanente | permanent | dauerhaft
suspend | suspender bloquear | suspender | suspendre | sperren
sales | ventas comercial | vendas comercial | ventes commercial | vertrieb verkauf
rotate | rotar | rodar | renouveler | rotieren wechseln
resolution | resolución | resolução | résolution | auflösung
quality | calidad | qualidade | qualité | qualität
scanner | escáner lector | leitor scanner | lecteur scanner | scanner lesegerät
collect | recoger recogida | recolher recolha | enlever enlèvement | abholen abholung
return | devolución devolver | devolução devolver | retour retourner | rücksendung retoure
expression | expresión | expressão | expression | ausdruck
delay | retraso demora | atraso demora | retard délai | verzögerung verspätung
peak | pico | pico | pic | spitze
traffic | tráfico | tráfego | trafic | verkehr
high | alto | alto | haut élevé | hoch
low | bajo | baixo | bas faible | niedrig
device | dispositivo | dispositivo | appareil | gerät
mobile | móvil | telemóvel celular | mobile portable | mobil handy
free | gratis gratuito libre | grátis gratuito livre | gratuit libre | kostenlos frei
paid | pagado | pago | payé | bezahlt
handle | gestionar encargarse | tratar encarregar | gérer traiter | bearbeiten
escalate | escalar | escalar | escalader remonter | eskalieren
replace | reemplazar sustituir | substituir | remplacer | ersetzen
switch | cambiar | trocar mudar | passer basculer | wechseln umstellen
upgrade | actualizar | atualizar | mettre niveau | aktualisieren
avoid | evitar | evitar | éviter | vermeiden
prevent | prevenir evitar | prevenir evitar | empêcher prévenir | verhindern
half | mitad | metade | moitié | hälfte
twice | dos veces | duas vezes | deux fois | zweimal doppelt
""".strip()
